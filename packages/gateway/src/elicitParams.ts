/**
 * The params of a server's elicitation as the gateway hands them to the host: the checked ones the
 * bridge made a Request of (`mode`, `message`, `requestedSchema` or `url`), with the server's own
 * `_meta` and the fields no revision defines as it sent them, except what the gateway owns toward
 * the host (`elicitationId`, `task`, and the `_meta` keys of the upstream's own request).
 */
import type { Request } from '@waitfor/core';
import { isRecord } from '@waitfor/runtime';

/**
 * Elicitation params as a host receives them (either era; `elicitationId` only toward a legacy
 * host), with the server's own `_meta` and unknown fields as it sent them.
 */
export type ElicitParams = (
  | { mode: 'form'; message: string; requestedSchema: Record<string, unknown> }
  | { mode: 'url'; message: string; url: string; elicitationId?: string }
) & { [field: string]: unknown };

/**
 * The fields of a server's params the gateway sets itself toward the host: the checked ones (from
 * the Request), `elicitationId` (a 2025 server's is kept, else the gateway makes up its own toward
 * a 2025 host: hostSide.ts) and `task` (the host is asked inside its call, never as a task).
 */
const OWNED_FIELDS = new Set([
  'mode',
  'message',
  'requestedSchema',
  'url',
  'elicitationId',
  'task',
]);

/**
 * The `_meta` keys that belong to the upstream's own request, not the host's: its progress token
 * (the host would report progress nobody asked it for) and a 2025 task of the upstream's (the
 * host never saw that task).
 */
const OWNED_META = new Set(['progressToken', 'io.modelcontextprotocol/related-task']);

/** `_meta` without the keys the gateway owns (the same object when it has none; none left: undefined). */
function ownMeta(meta: unknown): unknown {
  if (!isRecord(meta) || !Object.keys(meta).some((key) => OWNED_META.has(key))) return meta;
  const kept = Object.entries(meta).filter(([key]) => !OWNED_META.has(key));
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/**
 * The server's own fields of its params that reach the host as given (`_meta`, unknown ones).
 * One pass over the keys the server sent (bounded by the message the bridge took), values shared,
 * not copied; fromEntries keeps a key such as "__proto__" an own key.
 */
function serverFields(raw: Record<string, unknown> | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  const fields: Array<[string, unknown]> = [];
  for (const [field, value] of Object.entries(raw)) {
    const kept = field === '_meta' ? ownMeta(value) : value;
    if (!OWNED_FIELDS.has(field) && kept !== undefined) fields.push([field, kept]);
  }
  return Object.fromEntries(fields);
}

/**
 * A question's params, from the Request the bridge made of it and `raw`, the params the server
 * sent (when the bridge showed them): their `_meta` and unknown fields go with the checked ones.
 */
export function paramsOf(request: Request, raw?: Record<string, unknown>): ElicitParams {
  const fields = serverFields(raw);
  if (request.kind === 'authorization') {
    const params: ElicitParams = {
      ...fields,
      mode: 'url',
      message: request.prompt,
      url: request.url ?? '',
    };
    // Only a 2025 server's is an elicitationId (its completion names it, so it is kept); one a
    // 2026-07-28 server sends is a field of no meaning there, and the gateway sets its own.
    const modern = request.data?.origin?.era === 'modern';
    if (!modern && typeof raw?.['elicitationId'] === 'string')
      params.elicitationId = raw['elicitationId'];
    return params;
  }
  const schema = request.data?.schema;
  return {
    ...fields,
    mode: 'form',
    message: request.prompt,
    requestedSchema: isRecord(schema) ? schema : { type: 'object', properties: {} },
  };
}
