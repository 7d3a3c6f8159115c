/**
 * Everything the bridge does to an SDK client beyond its public API, in one place, pinned to the SDK
 * versions it was written for. `sdkWorkarounds.test.ts` reads the installed SDKs' package.json and
 * checks, against real clients, that each thing relied on still holds: an SDK upgrade that changes
 * it fails that test instead of silently breaking a connection.
 */
import { isRecord } from '@waitfor/runtime';
import { asRecord, invoke, type Loose } from './shared';

/** The SDK versions these workarounds were written (and last checked) for. */
export const WRITTEN_FOR = {
  '@modelcontextprotocol/client': '2.4.0',
  '@modelcontextprotocol/sdk': '1.32.2',
} as const;

type OnMessage = (message: unknown, ...rest: unknown[]) => void;
type Send = (...args: never[]) => unknown;

/**
 * Spec 2026-07-28 says a client MUST treat a missing `resultType` as "complete"; the v2 SDK's modern
 * codec (2.4.0) rejects it instead. On a modern connection the bridge therefore stamps `resultType:
 * "complete"` on the results of its own raw requests (`ids`) that lack one, at the transport's
 * public `onmessage` seam, before the SDK decodes them; the host's own calls on the same client are
 * left as they are. Call before every raw request: it re-applies itself whenever the SDK installs a
 * new handler (reconnect) and is a no-op while its own handler is in place.
 *
 * The same codec rejects a `resultType: "task"` (Tasks extension) with UnsupportedResultType and
 * drops the result (typescript-sdk#2637): for the bridge's own raw requests the result is kept in
 * `tasks` (by JSON-RPC id) as it arrives, so the request's rejection can be read back as its task.
 */
export function stampMissingResultType(
  client: Loose,
  ids: Set<unknown>,
  tasks?: Map<unknown, Record<string, unknown>>,
): void {
  const transport = client['transport'] as unknown as
    { onmessage?: OnMessage & { stamps?: Set<unknown> } } | undefined;
  const inner = transport?.onmessage;
  if (transport === undefined || inner === undefined || inner.stamps === ids) return;
  const patched: OnMessage = (message, ...rest) => {
    const record = asRecord(message);
    const result = record['result'];
    const own = ids.has(record['id']) && isRecord(result);
    if (own && result['resultType'] === 'task') tasks?.set(record['id'], result);
    inner(
      own && !('resultType' in result)
        ? { ...record, result: { ...result, resultType: 'complete' } }
        : message,
      ...rest,
    );
  };
  transport.onmessage = Object.assign(patched, { stamps: ids });
}

/**
 * A result schema that accepts any result as it came, for raw requests of methods the SDKs have no
 * schema for (tasks/update) or validate as another revision's (tasks/get): a Standard Schema for
 * the v2 client's `request()` and a zod-v3-like `safeParse` for the v1 client's. The bridge checks
 * each result itself.
 */
export const PASSTHROUGH = Object.freeze({
  '~standard': Object.freeze({
    version: 1,
    vendor: 'waitfor',
    validate: (value: unknown) => ({ value }),
  }),
  safeParse: (data: unknown) => ({ success: true, data }),
});

/**
 * The v1 client (1.32.2) takes no per-request headers: its Streamable HTTP transport builds every
 * POST's headers with `_commonHeaders()`, called synchronously at the start of `send`, which
 * `request()` calls synchronously. For the one `request()` made by `send`, the transport's
 * `_commonHeaders` is shadowed on the instance to add `headers` (set through `Headers`, so a name
 * the transport also sets is merged case-insensitively); stdio has no headers and is left alone.
 */
export function withV1Headers<T>(client: Loose, headers: Record<string, string>, send: () => T): T {
  const transport = client['transport'] as Loose | undefined;
  type Headers = { set(name: string, value: string): void };
  const common = transport?.['_commonHeaders'] as (() => Promise<Headers>) | undefined;
  if (transport === undefined || typeof common !== 'function' || Object.keys(headers).length === 0)
    return send();
  const owned = Object.hasOwn(transport, '_commonHeaders');
  transport['_commonHeaders'] = (async () => {
    const merged = await common.call(transport);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return merged;
  }) as never;
  try {
    return send();
  } finally {
    if (owned) transport['_commonHeaders'] = common as never;
    else delete transport['_commonHeaders'];
  }
}

/**
 * Issue `request` and capture the JSON-RPC id the SDK chose for it: the v2 SDK (2.4.0) hands the
 * message to `transport.send` synchronously inside `request()`, so `send` is wrapped for exactly
 * that call. (Closed: no transport, and the SDK itself rejects with "Not connected".)
 */
export function captureRequestId<T>(client: Loose, request: () => T): { id: unknown; pending: T } {
  const transport = (client['transport'] ?? {}) as unknown as { send: Send };
  const send = transport.send;
  let id: unknown;
  transport.send = (...args: never[]) => {
    id ??= asRecord(args[0])['id'];
    return send.apply(transport, args);
  };
  try {
    return { pending: request(), id };
  } finally {
    transport.send = send;
  }
}

/**
 * `request()` without a result schema (2.4.0) looks up the era's validator for the method by
 * probing it with `undefined`, which builds and prints a full zod error, every time — the SDK's own
 * retry legs skip it. The validator it finds is a plain Standard Schema of the era and method, so
 * the bridge keeps it (`validators`, per port) and passes it to `request()` as its documented
 * explicit schema: the same validation, once looked up. It is captured from the one synchronous
 * call `request()` makes to `_requestWithSchemaViaCodec`.
 */
export function requestValidated(
  client: Loose,
  validators: Map<string, unknown>,
  era: string | undefined,
  message: { method: string; params?: unknown },
  options: unknown,
): unknown {
  const key = `${era} ${message.method}`;
  const known = validators.get(key);
  if (known !== undefined) return invoke(client, 'request', message, known, options);
  const funnel = '_requestWithSchemaViaCodec';
  const original = client[funnel] as ((...args: unknown[]) => unknown) | undefined;
  // Shadowed for this one call only, on the instance (the prototype's method is left alone).
  const capture = typeof original === 'function' && !Object.hasOwn(client, funnel);
  if (capture) {
    client[funnel] = function (this: unknown, ...args: unknown[]) {
      delete client[funnel];
      validators.set(key, args[2]);
      return original.apply(this, args);
    } as never;
  }
  try {
    return invoke(client, 'request', message, options);
  } finally {
    if (capture) delete client[funnel];
  }
}

/** The JSON-RPC error code of SEP-2243's HEADER_MISMATCH (the SDK's `HEADER_MISMATCH_ERROR_CODE`). */
export const HEADER_MISMATCH = -32020;

/**
 * A raw tools/call, sent by `request` (the bridge's own request, which hands back input_required),
 * through `Client.callTool` (2.4.0) for what it does around its request: SEP-2243. It mirrors the
 * tool's `x-mcp-header` arguments into `Mcp-Param-*` headers (read from its cached tools/list;
 * none in a browser, where credentialed CORS cannot allow-list dynamically named headers) and, on
 * a HEADER_MISMATCH (-32020) answer, lists the tools afresh and sends once more. callTool runs on a
 * stand-in: `request` is the given one (also for that listing) and the response cache finds no
 * output validator (an input_required leg carries no structured content; the bridge never
 * validated one). All else is the client's own, read through the prototype; nothing is set on the
 * client, so the host's own calls are untouched.
 */
export function callToolBy(
  client: Loose,
  request: (message: unknown, options: unknown) => Promise<unknown>,
  params: Record<string, unknown>,
  options: unknown,
): unknown {
  const standIn = Object.create(client, {
    request: { value: request },
    _cache: {
      value: Object.create(client['_cache'] as object, {
        outputValidator: { value: async () => undefined },
      }),
    },
  }) as Loose;
  return invoke(standIn, 'callTool', params, options);
}
