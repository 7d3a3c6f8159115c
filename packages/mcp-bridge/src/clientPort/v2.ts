/**
 * The port of a v2 client (`@modelcontextprotocol/client`): both eras, handlers registered by
 * method name and synchronously (so a missing capability throws at attach time).
 */
import type { AbortSignalLike } from '@waitfor/core';
import type { ClientPort } from '../clientPort';
import type { ProtocolEra } from '../protocol';
import { callToolBy, captureRequestId, stampMissingResultType } from './sdkWorkarounds';
import {
  asRecord,
  basePort,
  invoke,
  notificationRouter,
  sdkName,
  sdkOptions,
  type Loose,
} from './shared';

/** The SDK-neutral view of a v2 client. */
export function createV2Port(client: Loose): ClientPort {
  /** JSON-RPC ids of the bridge's raw requests in flight on this client. */
  const rawIds = new Set<unknown>();
  const era = () => invoke(client, 'getProtocolEra') as ProtocolEra | undefined;
  const route = notificationRouter(client, (method, deliver) => {
    try {
      invoke(client, 'setNotificationHandler', method, deliver);
    } catch {
      // Not a spec method for this SDK: the fallback route still delivers it.
    }
  });
  return {
    generation: 'v2',
    ...basePort(client),
    era,
    useSchemas: () => undefined,
    setRequestHandler: (method, handler) => {
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
      // Every leg is a raw request() (it hands input_required back); a tools/call goes through
      // callTool around it for SEP-2243's Mcp-Param-* headers (see callToolBy).
      const request = async (message: unknown, requestOptions: unknown) => {
        if (era() === 'modern') stampMissingResultType(client, rawIds);
        const { id, pending } = captureRequestId(client, () =>
          invoke(client, 'request', message, requestOptions),
        );
        rawIds.add(id);
        try {
          return await pending;
        } finally {
          rawIds.delete(id);
        }
      };
      return method === 'tools/call'
        ? callToolBy(client, request, params, sdkOptions(options))
        : request({ method, params }, sdkOptions(options));
    },
  };
}
