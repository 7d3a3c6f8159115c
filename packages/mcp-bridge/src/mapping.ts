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

/** Check untrusted `elicitation/create` params (either era); throws BridgeError 'invalid_params'. */
export function parseElicitationParams(params: unknown): ElicitationParams {
  if (!isRecord(params)) throw invalid('params must be an object');
  const { mode, message } = params;
  if (typeof message !== 'string') throw invalid('"message" must be a string');
  if (mode === 'url') {
    // Sizes a server does not get to choose (a url past 8192 characters, an id past 256), in both
    // eras: refused like any malformed question, before anyone is asked.
    const { url, elicitationId } = params;
    if (typeof url !== 'string' || !url || url.length > 8192)
      throw invalid('"url" must be 1 to 8192 characters');
    const parsed: ElicitationParams = { mode: 'url', message, url };
    if (elicitationId !== undefined) {
      if (typeof elicitationId !== 'string' || !elicitationId || elicitationId.length > 256)
        throw invalid('"elicitationId" must be 1 to 256 characters');
      parsed.elicitationId = elicitationId;
    }
    return parsed;
  }
  if (mode !== undefined && mode !== 'form') throw invalid(`unknown mode ${JSON.stringify(mode)}`);
  const schema = params['requestedSchema'];
  if (!isRecord(schema)) throw invalid('"requestedSchema" must be an object');
  return { mode: 'form', message, requestedSchema: schema };
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
