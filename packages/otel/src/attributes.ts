/**
 * Attribute names and the values this package records. OpenTelemetry's names where the MCP and
 * GenAI semantic conventions define one, `waitfor.` otherwise.
 *
 * Invariants: nothing here reads an answer, a form's values or a prompt; a URL keeps only its
 * scheme, host and path (the query and fragment carry tokens and personal data); every string a
 * server controls is cut to a bounded length.
 */
import type { Attributes } from '@opentelemetry/api';
import type { Answer, Request } from '@waitfor/core';

/** `mcp.method.name`: tools/call, prompts/get or resources/read. */
export const METHOD = 'mcp.method.name';
/** `mcp.protocol.version`: set for modern-era (2026-07-28) calls. */
export const PROTOCOL_VERSION = 'mcp.protocol.version';
/** `mcp.resource.uri`: a resources/read call's URI, without query and fragment. */
export const RESOURCE_URI = 'mcp.resource.uri';
/** `gen_ai.tool.name`: a tools/call call's tool. */
export const TOOL_NAME = 'gen_ai.tool.name';
/** `gen_ai.prompt.name`: a prompts/get call's prompt. */
export const PROMPT_NAME = 'gen_ai.prompt.name';
/** `gen_ai.operation.name`: `execute_tool` on tools/call. */
export const OPERATION_NAME = 'gen_ai.operation.name';
/** `error.type`: the BridgeError code (or error name) a call failed with. */
export const ERROR_TYPE = 'error.type';

/** Who asks: the server name the bridge shows the person. */
export const SERVER = 'waitfor.server.name';
/** The protocol era of the call or question: legacy or modern. */
export const ERA = 'waitfor.era';
/** Modern era: input_required rounds that asked someone (a suspension: its exact count). */
export const ROUNDS = 'waitfor.call.rounds';
/** How many questions this call asked (re-asks included). */
export const QUESTIONS = 'waitfor.call.questions';
/** complete or suspended (durable calls). */
export const CALL_STATUS = 'waitfor.call.status';
/** The Request's id (random, names no one). */
export const REQUEST_ID = 'waitfor.request.id';
/** The Request's kind: input, authorization, approval, question, … */
export const KIND = 'waitfor.request.kind';
/** form (it carries a schema) or url. */
export const MODE = 'waitfor.question.mode';
/** The inputRequests key of a modern-era question. */
export const INPUT_KEY = 'waitfor.input.key';
/** Which attempt this is: 1, then 2 for the first re-ask of an invalid form. */
export const ATTEMPT = 'waitfor.question.attempt';
/** accepted, declined, cancelled, expired, invalid (re-asked) or other. */
export const OUTCOME = 'waitfor.question.outcome';
/** A URL question's address: scheme, host and path only. */
export const QUESTION_URL = 'waitfor.question.url';

/** How a question ended, as recorded. */
export type Outcome = 'accepted' | 'declined' | 'cancelled' | 'expired' | 'invalid' | 'other';

/** A plain record (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The longest string recorded from what a server or host controls. */
const MAX_LENGTH = 256;

/** A bounded copy of an untrusted string (non-strings are not recorded). */
export const bounded = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.slice(0, MAX_LENGTH) : undefined;

// The main entry compiles without DOM and Node types: the part of the global URL used here.
declare const URL: new (value: string) => { protocol: string; host: string; pathname: string };

/** Scheme, host and path of a URL; undefined when it does not parse. Never the query or fragment. */
export function withoutQuery(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // A bound before parsing: a server's megabyte URL costs nothing to refuse.
  if (value.length > 8 * 1024) return undefined;
  try {
    const url = new URL(value);
    // Opaque URIs (mailto:, urn:) have no host: the path is the whole rest, cut at ? and #.
    return bounded(
      url.host === ''
        ? `${url.protocol}${url.pathname}`
        : `${url.protocol}//${url.host}${url.pathname}`,
    );
  } catch {
    return undefined;
  }
}

const known: readonly Outcome[] = ['declined', 'cancelled', 'expired'];

/** The outcome of one Answer (an accepted form may still turn out invalid: see the tracker). */
export function outcomeOf(answer: Answer | undefined): Outcome {
  if (answer === undefined) return 'cancelled';
  if (answer.ok === true) return 'accepted';
  const reason: unknown = answer.reason;
  return known.find((outcome) => outcome === reason) ?? 'other';
}

/** Origin fields recorded as they are, by attribute name. */
const originNames: ReadonlyArray<[string, string]> = [
  [SERVER, 'server'],
  [ERA, 'era'],
  [TOOL_NAME, 'tool'],
  [PROMPT_NAME, 'prompt'],
  [INPUT_KEY, 'inputKey'],
];

/**
 * The attributes of a question, read from its Request: origin, kind, mode, attempt — never its
 * content. Own keys only; origin values are the server's, so bounded.
 */
export function questionAttributes(request: Request): Attributes {
  const data = request.data;
  const origin = data?.origin;
  const own = (record: unknown, key: string): unknown =>
    isRecord(record) && Object.hasOwn(record, key) ? record[key] : undefined;
  const attempt = own(data, 'attempt');
  const attributes: Attributes = {
    [REQUEST_ID]: bounded(request.id),
    [KIND]: bounded(request.kind) ?? 'unknown',
    [ATTEMPT]: Number.isInteger(attempt) && (attempt as number) > 1 ? (attempt as number) : 1,
  };
  const put = (name: string, value: string | undefined) => {
    if (value !== undefined) attributes[name] = value;
  };
  for (const [name, key] of originNames) put(name, bounded(own(origin, key)));
  put(RESOURCE_URI, withoutQuery(own(origin, 'resource')));
  put(QUESTION_URL, withoutQuery(request.url));
  put(
    MODE,
    typeof request.url === 'string'
      ? 'url'
      : own(data, 'schema') !== undefined
        ? 'form'
        : undefined,
  );
  return attributes;
}
