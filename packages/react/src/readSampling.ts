import type { Request } from '@waitfor/core';
import { english } from './describeUrl.js';
import type { MessageText } from './describeUrl.js';

/**
 * The data of a `kind:"sampling"` Request: a host whose sampling handler asks a person first puts
 * the handler's params (an MCP `sampling/createMessage` request's params) under `data.params`.
 * Accepting answers `data.params` again, as the person approved or edited them.
 */
export interface SamplingRequestData {
  params: {
    messages: ReadonlyArray<{ role: string; content: unknown }>;
    systemPrompt?: string;
    maxTokens?: number;
    modelPreferences?: {
      hints?: ReadonlyArray<{ name?: string }>;
      costPriority?: number;
      speedPriority?: number;
      intelligencePriority?: number;
    };
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** One message of a sampling request as a person reads it. */
export interface SamplingMessage {
  role: string;
  /** Its text blocks' text, one line per block; another block (image, audio) as a `content` note. */
  text: string;
  /** True when the message is one text block, which the person may edit. */
  editable: boolean;
}

/** What a sampling view shows, read from untrusted params with own keys only. */
export interface SamplingReview {
  params: Record<string, unknown>;
  messages: readonly SamplingMessage[];
  systemPrompt: string | undefined;
  models: readonly string[];
  /** Cost, speed and intelligence priorities (0 to 1), each undefined when not given. */
  priorities: ReadonlyArray<number | undefined>;
  maxTokens: number | undefined;
  /** More messages or blocks than a person can review: the view offers only decline and cancel. */
  tooLarge: boolean;
}

/** The most messages (and blocks per message) a sampling view shows; more cannot be approved. */
export const samplingLimit = 200;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const own = (record: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(record, key) ? record[key] : undefined;

const string = (value: unknown) => (typeof value === 'string' ? value : undefined);

const fraction = (value: unknown) =>
  typeof value === 'number' && value >= 0 && value <= 1 ? value : undefined;

/**
 * Reads a `kind:"sampling"` Request's `data.params` for a person to review; notes for content that
 * is not text in English, or through `text`.
 */
export function readSampling(request: Request, text: MessageText = english): SamplingReview {
  const data = request.data ?? {};
  const params = isRecord(own(data, 'params'))
    ? (own(data, 'params') as Record<string, unknown>)
    : {};
  const list = own(params, 'messages');
  const given = Array.isArray(list) ? list : [];
  let tooLarge = given.length > samplingLimit;
  const messages = given.slice(0, samplingLimit).map((message: unknown): SamplingMessage => {
    const record = isRecord(message) ? message : {};
    const content = own(record, 'content');
    const blocks: unknown[] = Array.isArray(content) ? content : [content];
    if (blocks.length > samplingLimit) tooLarge = true;
    const parts = blocks.slice(0, samplingLimit).map((block) => {
      const each = isRecord(block) ? block : {};
      const type = string(own(each, 'type')) ?? 'unknown';
      const body = type === 'text' ? string(own(each, 'text')) : undefined;
      return body ?? text('content', { type });
    });
    const single = isRecord(content) && own(content, 'type') === 'text';
    return {
      role: string(own(record, 'role')) ?? 'unknown',
      text: parts.join('\n'),
      editable: single && typeof own(content, 'text') === 'string',
    };
  });
  const preferences = own(params, 'modelPreferences');
  const chosen = isRecord(preferences) ? preferences : {};
  const hints = own(chosen, 'hints');
  const models = (Array.isArray(hints) ? hints.slice(0, 20) : [])
    .map((hint: unknown) => (isRecord(hint) ? string(own(hint, 'name')) : undefined))
    .filter((name): name is string => name !== undefined && name !== '');
  const priorities = ['cost', 'speed', 'intelligence'].map((name) =>
    fraction(own(chosen, `${name}Priority`)),
  );
  const maxTokens = own(params, 'maxTokens');
  return {
    params,
    messages,
    systemPrompt: string(own(params, 'systemPrompt')),
    models,
    priorities,
    maxTokens: Number.isSafeInteger(maxTokens) ? (maxTokens as number) : undefined,
    tooLarge,
  };
}
