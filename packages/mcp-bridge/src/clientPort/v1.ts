/**
 * The port of a v1 client (`@modelcontextprotocol/sdk`): legacy era only. Its handlers are
 * registered with the SDK's zod request schemas, given (`options.v1Schemas`) or imported lazily, so
 * registration may wait for a module: the client's `connect` waits for it too.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { BridgeError } from '../bridgeError';
import type { ClientPort, InboundMethod, V1Schemas } from './port';
import { PASSTHROUGH, withV1Headers } from './sdkWorkarounds';
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

let v1TypesModule: Promise<V1Schemas> | undefined;
function loadV1Schemas(): Promise<V1Schemas> {
  // A variable specifier keeps bundlers from resolving v1 for hosts that never use it.
  const specifier = '@modelcontextprotocol/sdk/types.js';
  v1TypesModule ??= (import(/* @vite-ignore */ specifier) as Promise<V1Schemas>).catch(
    (error: unknown) => {
      v1TypesModule = undefined;
      throw new BridgeError(
        'invalid_options',
        'A v1 client needs options.v1Schemas or @modelcontextprotocol/sdk',
        { cause: error },
      );
    },
  );
  return v1TypesModule;
}

const v1SchemaName: Record<InboundMethod, keyof V1Schemas> = {
  'elicitation/create': 'ElicitRequestSchema',
  'sampling/createMessage': 'CreateMessageRequestSchema',
  'roots/list': 'ListRootsRequestSchema',
  'tasks/get': 'GetTaskRequestSchema',
  'tasks/result': 'GetTaskPayloadRequestSchema',
  'tasks/list': 'ListTasksRequestSchema',
  'tasks/cancel': 'CancelTaskRequestSchema',
};

/** The SDK-neutral view of a v1 client. */
export function createV1Port(client: Loose): ClientPort {
  /** The v1Schemas last given: read at registration, so a later attach's count. */
  let given: V1Schemas | undefined;
  /** Registrations in flight (loading their schemas), as one promise: `connect` waits for it. */
  let loading: Promise<unknown> | undefined;

  /**
   * Make `connect` wait for the registrations in flight, so attach-then-connect (without awaiting
   * `ready`) cannot answer an early push "Method not found"; a registration that failed fails the
   * connect instead of leaving the push unanswered.
   */
  const holdConnect = (registration: Promise<unknown>) => {
    if (loading === undefined) {
      const connect = client['connect'] as (...args: unknown[]) => unknown;
      client['connect'] = (async (...args: unknown[]) => {
        await loading;
        return connect.apply(client, args);
      }) as never;
    }
    const all = Promise.all([loading, registration]);
    // Observed here so a failure nobody connects after is no unhandled rejection; connect rethrows it.
    all.catch(Boolean);
    loading = all;
  };

  return {
    ...basePort(client),
    era: () => 'legacy',
    useSchemas: (schemas) => void (given = schemas),
    setRequestHandler: (method, handler) => {
      const registration = Promise.resolve(given ?? loadV1Schemas()).then((schemas) => {
        const schema = schemas[v1SchemaName[method]];
        if (schema === undefined)
          throw new BridgeError(
            'invalid_options',
            `options.v1Schemas lacks ${v1SchemaName[method]}`,
          );
        invoke(client, 'setRequestHandler', schema, (request: unknown, extra: unknown) =>
          handler(asRecord(asRecord(request)['params']), {
            signal: asRecord(extra)['signal'] as AbortSignalLike | undefined,
            id: asRecord(extra)['requestId'],
          }),
        );
        return () => void invoke(client, 'removeRequestHandler', method);
      });
      holdConnect(registration);
      return registration;
    },
    onNotification: notificationRouter(client),
    // v1's callTool takes a result schema second.
    call: async (method, params, options) =>
      method === 'tools/call'
        ? invoke(client, 'callTool', params, undefined, sdkOptions(options))
        : invoke(client, sdkName[method], params, sdkOptions(options)),
    request: async (method, params, options) =>
      (await withV1Headers(client, rawHeaders(method, params, options.headers), () =>
        invoke(client, 'request', { method, params }, PASSTHROUGH, {
          signal: options.signal,
          timeout: options.timeout,
        }),
      )) as Record<string, unknown>,
  };
}
