/**
 * The port of a v2 client (`@modelcontextprotocol/client`): both eras, handlers registered by
 * method name and synchronously (so a missing capability throws at attach time).
 */
import type { AbortSignalLike } from '@waitfor/core';
import { BridgeError } from '../bridgeError';
import type { ClientPort, PortCallOptions } from './port';
import type { ProtocolEra } from '../protocol';
import {
  callToolBy,
  captureRequestId,
  HEADER_MISMATCH,
  PASSTHROUGH,
  requestValidated,
  stampMissingResultType,
} from './sdkWorkarounds';
import {
  asRecord,
  basePort,
  invoke,
  notificationRouter,
  rawHeaders,
  sdkName,
  sdkOptions,
  type Loose,
} from './shared';

/**
 * One raw request(): it hands input_required back instead of driving it, and a task result
 * (`resultType: "task"`) back instead of rejecting it; `passthrough` skips the SDK's validation.
 */
type RawRequest = (
  message: { method: string; params?: unknown },
  options: unknown,
  passthrough?: boolean,
) => Promise<unknown>;

/** The bridge's raw requests on `client` (each leg of the modern loop goes through one). */
function rawRequester(client: Loose, era: () => ProtocolEra | undefined): RawRequest {
  /** JSON-RPC ids of the bridge's raw requests in flight on this client. */
  const rawIds = new Set<unknown>();
  /** Task results of those requests, which the SDK rejects (see stampMissingResultType). */
  const tasks = new Map<unknown, Record<string, unknown>>();
  /** The SDK's result validators by era and method (see requestValidated). */
  const validators = new Map<string, unknown>();
  return async (message, requestOptions, passthrough) => {
    const current = era();
    if (current === 'modern') stampMissingResultType(client, rawIds, tasks);
    const { id, pending } = captureRequestId(client, () =>
      passthrough === true
        ? invoke(client, 'request', message, PASSTHROUGH, requestOptions)
        : requestValidated(client, validators, current, message, requestOptions),
    );
    rawIds.add(id);
    try {
      return await pending;
    } catch (error) {
      const task = tasks.get(id);
      if (task === undefined) throw error;
      return task;
    } finally {
      rawIds.delete(id);
      tasks.delete(id);
    }
  };
}

/**
 * A raw tools/call leg. The first goes through callTool around the raw request for SEP-2243's
 * Mcp-Param-* headers (see callToolBy), and the retries send the same headers again, as the SDK's
 * own loop does; a retry the server refuses with HEADER_MISMATCH goes through callTool again.
 */
async function rawToolCall(
  client: Loose,
  request: RawRequest,
  params: Record<string, unknown>,
  sent: ReturnType<typeof sdkOptions>,
  legs: PortCallOptions['legs'],
): Promise<unknown> {
  // The server's answer to a retry with the first leg's headers, when its declarations changed.
  let mismatch: unknown;
  if (legs !== undefined && 'headers' in legs) {
    try {
      return await request({ method: 'tools/call', params }, { ...sent, headers: legs.headers });
    } catch (error) {
      if (asRecord(error)['code'] !== HEADER_MISMATCH) throw error;
      mismatch = error;
    }
  }
  return callToolBy(
    client,
    (message, requestOptions) => {
      // callTool's first send gets that answer again (nothing is sent twice): it then lists the
      // tools afresh and sends with the new headers.
      if (mismatch !== undefined) {
        const error = mismatch;
        mismatch = undefined;
        return Promise.reject(error);
      }
      const sending = message as { method: string };
      // What the tools/call goes out with (not the listing callTool may send first).
      if (legs !== undefined && sending.method === 'tools/call')
        legs.headers = asRecord(requestOptions)['headers'];
      return request(sending, requestOptions);
    },
    params,
    sent,
  );
}

/** The SDK-neutral view of a v2 client. */
export function createV2Port(client: Loose): ClientPort {
  const era = () => invoke(client, 'getProtocolEra') as ProtocolEra | undefined;
  const request = rawRequester(client, era);
  const route = notificationRouter(client, (method, deliver) => {
    try {
      invoke(client, 'setNotificationHandler', method, deliver);
    } catch {
      // Not a spec method for this SDK: the fallback route still delivers it.
    }
  });
  return {
    ...basePort(client),
    era,
    setRequestHandler: (method, handler) => {
      if (method.startsWith('tasks/'))
        throw new BridgeError(
          'invalid_options',
          'taskElicitation needs a v1 client: the v2 client (2.4.0) checks the answer to a ' +
            'task-augmented elicitation/create as an ElicitResult and refuses the task',
        );
      invoke(client, 'setRequestHandler', method, (request: unknown, context: unknown) => {
        const mcpRequest = asRecord(asRecord(context)['mcpReq']);
        return handler(asRecord(asRecord(request)['params']), {
          signal: mcpRequest['signal'] as AbortSignalLike | undefined,
          id: mcpRequest['id'],
        });
      });
      return Promise.resolve(() => void invoke(client, 'removeRequestHandler', method));
    },
    onNotification: route,
    call: async (method, params, options) => {
      if (options.raw !== true) return invoke(client, sdkName[method], params, sdkOptions(options));
      const sent = sdkOptions(options);
      return method === 'tools/call'
        ? rawToolCall(client, request, params, sent, options.legs)
        : request({ method, params }, sent);
    },
    // The SDK derives Mcp-Name from the body itself on a modern connection (it ignores a
    // per-request one); the header given is for the transports that do not.
    request: async (method, params, options) =>
      (await request(
        { method, params },
        {
          signal: options.signal,
          timeout: options.timeout,
          headers: rawHeaders(method, params, options.headers),
        },
        true,
      )) as Record<string, unknown>,
  };
}
