/**
 * One SDK-neutral view of an MCP client of either generation. The SDKs are peer dependencies: this
 * module never imports them at run time and reads clients structurally, so a host with only one
 * SDK installed (or a browser with only the v2 client) works.
 *
 * - v2 (`@modelcontextprotocol/client`): detected by `getProtocolEra`; handlers by method name.
 * - v1 (`@modelcontextprotocol/sdk`): legacy era only; handlers need the SDK's zod request schemas,
 *   taken from `options.v1Schemas` or, lazily, from `@modelcontextprotocol/sdk/types.js`.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { BridgeError } from './bridgeError';

/** The server→client request methods the bridge answers. */
export type InboundMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** What a registered handler receives besides the params. */
export interface InboundContext {
  signal: AbortSignalLike | undefined;
  /** v2 auto-loop: the inputRequests key; wire requests: the JSON-RPC id. */
  id: unknown;
}

/** A handler the bridge registers on a client. */
export type InboundHandler = (
  params: Record<string, unknown>,
  context: InboundContext,
) => Promise<unknown>;

/** The v1 zod schemas needed to register handlers on a v1 client (from '@modelcontextprotocol/sdk/types.js'). */
export interface V1Schemas {
  ElicitRequestSchema: unknown;
  CreateMessageRequestSchema?: unknown;
  ListRootsRequestSchema?: unknown;
}

/** Per-call options the bridge passes to the SDK. */
export interface PortCallOptions {
  signal?: AbortSignalLike | undefined;
  timeout?: number | undefined;
  /** Ask the v2 client to hand back `input_required` instead of driving it. */
  raw?: boolean;
}

/** The SDK-neutral client. */
export interface ClientPort {
  readonly generation: 'v1' | 'v2';
  readonly client: object;
  era(): 'legacy' | 'modern' | undefined;
  serverName(): string | undefined;
  isConnected(): boolean;
  registerCapabilities(capabilities: Record<string, unknown>): void;
  setRequestHandler(method: InboundMethod, handler: InboundHandler): Promise<() => void>;
  onNotification(method: string, handler: (params: Record<string, unknown>) => void): () => void;
  call(
    method: 'tools/call' | 'prompts/get' | 'resources/read',
    params: Record<string, unknown>,
    options: PortCallOptions,
  ): Promise<unknown>;
  listTools(options: PortCallOptions): Promise<unknown>;
}

type AnyFunction = (...args: never[]) => unknown;
type Loose = Record<string, unknown> & Record<string, AnyFunction | undefined>;

const fn = (client: Loose, name: string): AnyFunction | undefined =>
  typeof client[name] === 'function' ? (client[name] as AnyFunction) : undefined;

function invoke(client: Loose, name: string, ...args: unknown[]): unknown {
  const method = fn(client, name);
  if (method === undefined)
    throw new BridgeError('invalid_options', `The MCP client has no ${name}() method`);
  return (method as (...values: unknown[]) => unknown).apply(client, args);
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** Notification fan-out per client, so several extensions can listen to one method. */
const notificationRouters = new WeakMap<
  object,
  Map<string, Set<(params: Record<string, unknown>) => void>>
>();

function routeNotifications(port: { client: object; generation: 'v1' | 'v2' }, method: string) {
  let routes = notificationRouters.get(port.client);
  if (routes === undefined) {
    routes = new Map();
    notificationRouters.set(port.client, routes);
    const client = port.client as Loose;
    const previous = client['fallbackNotificationHandler'] as
      ((notification: unknown) => Promise<void>) | undefined;
    const table = routes;
    // Methods without a specific handler reach the fallback on both generations; keep any fallback the host set.
    client['fallbackNotificationHandler'] = (async (notification: unknown) => {
      const record = asRecord(notification);
      const listeners = table.get(String(record['method']));
      if (listeners !== undefined)
        for (const listener of [...listeners]) listener(asRecord(record['params']));
      else if (previous !== undefined) await previous.call(client, notification);
    }) as never;
  }
  let listeners = routes.get(method);
  if (listeners === undefined) {
    listeners = new Set();
    routes.set(method, listeners);
    if (port.generation === 'v2') {
      const set = listeners;
      try {
        invoke(port.client as Loose, 'setNotificationHandler', method, (notification: unknown) => {
          for (const listener of [...set]) listener(asRecord(asRecord(notification)['params']));
        });
      } catch {
        // Not a spec method for this SDK: the fallback route above still delivers it.
      }
    }
  }
  return listeners;
}

type OnMessage = (message: unknown, ...rest: unknown[]) => void;
const patchedHandlers = new WeakSet<OnMessage>();

/**
 * Spec 2026-07-28 says a client MUST treat a missing `resultType` as "complete"; the v2 SDK's modern
 * codec rejects it instead. On a modern connection the bridge therefore stamps `resultType:
 * "complete"` on the results of its own raw requests (`ids`) that lack one, at the transport's
 * public `onmessage` seam, before the SDK decodes them; the host's own calls on the same client are
 * left as they are. Re-applied whenever the SDK installs a new handler (reconnect).
 */
function treatMissingResultTypeAsComplete(client: Loose, ids: Set<unknown>): void {
  const transport = client['transport'] as unknown as { onmessage?: OnMessage } | undefined;
  const inner = transport?.onmessage;
  if (transport === undefined || inner === undefined || patchedHandlers.has(inner)) return;
  const patched: OnMessage = (message, ...rest) => {
    const record = asRecord(message);
    const result = record['result'];
    inner(
      ids.has(record['id']) &&
        typeof result === 'object' &&
        result !== null &&
        !Array.isArray(result) &&
        !('resultType' in result)
        ? { ...record, result: { ...result, resultType: 'complete' } }
        : message,
      ...rest,
    );
  };
  patchedHandlers.add(patched);
  transport.onmessage = patched;
}

let v1TypesModule: Promise<V1Schemas> | undefined;
function loadV1Schemas(): Promise<V1Schemas> {
  // A variable specifier keeps bundlers from resolving v1 for hosts that never use it.
  const specifier = '@modelcontextprotocol/sdk/types.js';
  v1TypesModule ??= (import(/* @vite-ignore */ specifier) as Promise<V1Schemas>).catch(
    (error: unknown) => {
      v1TypesModule = undefined;
      throw new BridgeError(
        'invalid_options',
        'A v1 client needs options.v1Schemas (or @modelcontextprotocol/sdk installed)',
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
};

/** True for objects that look like an MCP client of either generation. */
export function isMcpClient(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const client = value as Loose;
  return (
    fn(client, 'setRequestHandler') !== undefined &&
    fn(client, 'request') !== undefined &&
    fn(client, 'connect') !== undefined
  );
}

const portCache = new WeakMap<object, ClientPort>();
/** The v1Schemas last given for a client: read at registration, so a later attach's count. */
const givenSchemas = new WeakMap<object, V1Schemas>();
/** v1 registrations (loading their schemas), per client, as one promise: its `connect` waits for it. */
const loading = new WeakMap<object, Promise<unknown>>();

/**
 * Make a v1 client's `connect` wait for the handler registrations in flight, so attach-then-connect
 * (without awaiting `ready`) cannot answer an early push "Method not found"; a registration that
 * failed fails the connect instead of leaving the push unanswered.
 */
function holdConnect(client: Loose, registration: Promise<unknown>): void {
  const held = loading.get(client);
  if (held === undefined) {
    const connect = client['connect'] as AnyFunction;
    client['connect'] = (async (...args: never[]) => {
      await loading.get(client);
      return connect.apply(client, args);
    }) as never;
  }
  const all = Promise.all([held, registration]);
  // Observed here so a failure nobody connects after is no unhandled rejection; connect rethrows it.
  all.catch(Boolean);
  loading.set(client, all);
}

/** The SDK-neutral view of `client` (cached per client). */
export function clientPort(client: object, v1Schemas?: V1Schemas): ClientPort {
  if (v1Schemas !== undefined) givenSchemas.set(client, v1Schemas);
  const cached = portCache.get(client);
  if (cached !== undefined) return cached;
  if (!isMcpClient(client))
    throw new BridgeError('invalid_options', 'Not an MCP Client (v1 or v2 SDK)');
  const loose = client as Loose;
  /** JSON-RPC ids of the bridge's raw requests in flight on this client. */
  const rawIds = new Set<unknown>();
  const generation: 'v1' | 'v2' = fn(loose, 'getProtocolEra') !== undefined ? 'v2' : 'v1';
  // Both SDKs read an undefined option as unset.
  const sdkOptions = (options: PortCallOptions) => ({
    signal: options.signal,
    timeout: options.timeout,
    allowInputRequired: options.raw,
  });
  const port: ClientPort = {
    generation,
    client,
    era: () =>
      generation === 'v1'
        ? 'legacy'
        : (invoke(loose, 'getProtocolEra') as 'legacy' | 'modern' | undefined),
    serverName: () => {
      const name = asRecord(fn(loose, 'getServerVersion')?.call(loose))['name'];
      return typeof name === 'string' && name !== '' ? name : undefined;
    },
    isConnected: () => loose['transport'] !== undefined,
    registerCapabilities: (capabilities) =>
      void invoke(loose, 'registerCapabilities', capabilities),
    // v2 registers synchronously (so a missing capability throws at attach time); v1 may first load its schemas.
    setRequestHandler: (method, handler) => {
      const remove = () => void invoke(loose, 'removeRequestHandler', method);
      if (generation === 'v2') {
        invoke(loose, 'setRequestHandler', method, (request: unknown, context: unknown) => {
          const mcpRequest = asRecord(asRecord(context)['mcpReq']);
          return handler(asRecord(asRecord(request)['params']), {
            signal: mcpRequest['signal'] as AbortSignalLike | undefined,
            id: mcpRequest['id'],
          });
        });
        return Promise.resolve(remove);
      }
      const given = givenSchemas.get(client);
      const registration = (given === undefined ? loadV1Schemas() : Promise.resolve(given)).then(
        (schemas) => {
          const schema = schemas[v1SchemaName[method]];
          if (schema === undefined)
            throw new BridgeError(
              'invalid_options',
              `options.v1Schemas lacks ${v1SchemaName[method]}`,
            );
          invoke(loose, 'setRequestHandler', schema, (request: unknown, extra: unknown) =>
            handler(asRecord(asRecord(request)['params']), {
              signal: asRecord(extra)['signal'] as AbortSignalLike | undefined,
              id: asRecord(extra)['requestId'],
            }),
          );
          return remove;
        },
      );
      holdConnect(loose, registration);
      return registration;
    },
    onNotification: (method, handler) => {
      const listeners = routeNotifications({ client, generation }, method);
      listeners.add(handler);
      return () => void listeners.delete(handler);
    },
    call: async (method, params, options) => {
      if (generation === 'v2' && options.raw === true) {
        if (invoke(loose, 'getProtocolEra') === 'modern')
          treatMissingResultTypeAsComplete(loose, rawIds);
        // The SDK hands the request to transport.send synchronously inside request(): that is
        // where the JSON-RPC id it chose is seen.
        // (Closed: no transport, and the SDK itself rejects with "Not connected".)
        const transport = (loose['transport'] ?? {}) as unknown as { send: AnyFunction };
        const send = transport.send;
        let id: unknown;
        transport.send = (...args: never[]) => {
          id ??= asRecord(args[0])['id'];
          return send.apply(transport, args);
        };
        let pending: unknown;
        try {
          // request() rather than callTool(): callTool validates structured output against a
          // cached outputSchema, which an input_required leg does not carry.
          pending = invoke(loose, 'request', { method, params }, sdkOptions(options));
        } finally {
          transport.send = send;
        }
        rawIds.add(id);
        try {
          return await pending;
        } finally {
          rawIds.delete(id);
        }
      }
      if (method === 'tools/call') {
        return generation === 'v2'
          ? invoke(loose, 'callTool', params, sdkOptions(options))
          : invoke(loose, 'callTool', params, undefined, sdkOptions(options));
      }
      return invoke(
        loose,
        method === 'prompts/get' ? 'getPrompt' : 'readResource',
        params,
        sdkOptions(options),
      );
    },
    listTools: async (options) => invoke(loose, 'listTools', undefined, sdkOptions(options)),
  };
  portCache.set(client, port);
  return port;
}
