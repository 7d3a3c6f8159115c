/**
 * The pure mappings of docs/architecture.md ("The mapping"), exactly as its table says:
 * - `mode == "url"` → `kind: "authorization"`, `url`; otherwise `kind: "input"`, `data.schema`.
 * - `message` → `prompt`; `id` is fresh, `elc-…`, unique per call.
 * - `ok: true` → accept with `content` (`{}` when absent); `declined` → decline; anything else → cancel.
 * The bridge's handlers add more (origin, defaults, validation); these functions never do.
 */
import { createRequestId, type Answer, type Request } from '@waitfor/core';
import { isRecord } from '@waitfor/runtime';
import { BridgeError } from './bridgeError';

/** The result of an elicitation, as the protocol wants it back. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/** Form or URL elicitation params after checking. */
export type ElicitationParams =
  | { mode: 'form'; message: string; requestedSchema: Record<string, unknown> }
  | { mode: 'url'; message: string; url: string; elicitationId?: string };

// The one record check of every package (not null, not an array), for the shape of params/result maps.
export { isRecord } from '@waitfor/runtime';

const invalid = (message: string) =>
  new BridgeError('invalid_params', `Invalid elicitation params: ${message}`);

/** `params[name]` when it is a string of 1 to `max` characters. */
const bounded = (params: Record<string, unknown>, name: string, max: number): string => {
  const value = params[name];
  if (typeof value !== 'string' || !value || value.length > max)
    throw invalid(`"${name}" must be 1 to ${max} characters`);
  return value;
};

/** Check untrusted `elicitation/create` params (either era); throws BridgeError 'invalid_params'. */
export function parseElicitationParams(params: unknown): ElicitationParams {
  if (!isRecord(params)) throw invalid('params must be an object');
  const { mode, message, requestedSchema } = params;
  if (typeof message !== 'string') throw invalid('"message" must be a string');
  if (mode === 'url') {
    // Sizes a server does not get to choose (a url past 8192 characters, an id past 256), in both
    // eras: refused like any malformed question, before anyone is asked.
    const parsed: ElicitationParams = { mode, message, url: bounded(params, 'url', 8192) };
    if (params['elicitationId'] !== undefined)
      parsed.elicitationId = bounded(params, 'elicitationId', 256);
    return parsed;
  }
  if (mode !== undefined && mode !== 'form') throw invalid(`unknown mode ${JSON.stringify(mode)}`);
  if (!isRecord(requestedSchema)) throw invalid('"requestedSchema" must be an object');
  return { mode: 'form', message, requestedSchema };
}

/** Map `elicitation/create` params to a Request (table of docs/architecture.md); malformed params throw. */
export function elicitationToRequest(params: unknown): Request {
  return requestOf(parseElicitationParams(params));
}

/** @internal The Request of params already checked (the same table, without checking again). */
export function requestOf(parsed: ElicitationParams): Request {
  const id = createRequestId('elc');
  if (parsed.mode === 'url')
    return { id, kind: 'authorization', prompt: parsed.message, url: parsed.url };
  return { id, kind: 'input', prompt: parsed.message, data: { schema: parsed.requestedSchema } };
}

/** Map an Answer to the ElicitResult the protocol wants (table of docs/architecture.md). */
export function answerToElicitResult(answer: Answer): ElicitResult {
  if (answer.ok) return { action: 'accept', content: answer.data ?? {} };
  return { action: answer.reason === 'declined' ? 'decline' : 'cancel' };
}
