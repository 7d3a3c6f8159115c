/**
 * What both SDK generations share: reading a client structurally, the SDK options both read the
 * same way, and the notification fan-out (both deliver unknown methods to the fallback handler).
 */
import { isRecord } from '@waitfor/runtime';
import { BridgeError } from '../bridgeError';
import { TASK_ID_METHODS, type ClientPort, type PortCallOptions } from './port';

type AnyFunction = (...args: never[]) => unknown;

/** A client read structurally: any key, functions called by name. */
export type Loose = Record<string, unknown> & Record<string, AnyFunction | undefined>;

/** The method `name` of `client`, if it has one. */
export const fn = (client: Loose, name: string): AnyFunction | undefined =>
  typeof client[name] === 'function' ? (client[name] as AnyFunction) : undefined;

/** Call `client[name](...args)`; a missing method is the host's mistake ('invalid_options'). */
export function invoke(client: Loose, name: string, ...args: unknown[]): unknown {
  if (!fn(client, name)) throw new BridgeError('invalid_options', `The client has no ${name}()`);
  return (client[name] as (...values: unknown[]) => unknown)(...args);
}

/** `value` as a record, `{}` when it is none. */
export const asRecord = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

/**
 * The SDK request options (both generations read an undefined option as unset), named one by one:
 * nothing else of the bridge's own options reaches an SDK, and every leg of every call passes here
 * (a rest copy is V8's slow path).
 */
export const sdkOptions = (options: PortCallOptions) => ({
  signal: options.signal,
  timeout: options.timeout,
  allowInputRequired: options.raw,
  onprogress: options.onprogress,
  resetTimeoutOnProgress: options.resetTimeoutOnProgress,
  maxTotalTimeout: options.maxTotalTimeout,
});

/** The SDK method name of a list or call method (both generations name them alike). */
export const sdkName = {
  'tools/list': 'listTools',
  'prompts/list': 'listPrompts',
  'resources/list': 'listResources',
  'tools/call': 'callTool',
  'prompts/get': 'getPrompt',
  'resources/read': 'readResource',
} as const;

type Listener = (params: Record<string, unknown>) => void;

/**
 * Notification fan-out for one client, so several extensions can listen to one method: methods
 * without a specific handler reach the fallback on both generations (any fallback the host set is
 * kept); `onMethod` may also register a specific handler (v2 does, for spec methods).
 */
export function notificationRouter(
  client: Loose,
  onMethod?: (method: string, deliver: (notification: unknown) => void) => void,
) {
  let routes: Map<string, Set<Listener>> | undefined;
  const deliver = (method: string, notification: unknown) => {
    for (const listener of [...routes!.get(method)!])
      listener(asRecord(asRecord(notification)['params']));
  };
  return (method: string, listener: Listener): (() => void) => {
    if (!routes) {
      routes = new Map();
      const previous = client['fallbackNotificationHandler'] as
        ((notification: unknown) => Promise<void>) | undefined;
      client['fallbackNotificationHandler'] = (async (notification: unknown) => {
        const name = String(asRecord(notification)['method']);
        if (routes!.has(name)) deliver(name, notification);
        else await previous?.call(client, notification);
      }) as never;
    }
    if (!routes.has(method)) {
      routes.set(method, new Set());
      onMethod?.(method, (notification) => deliver(method, notification));
    }
    const listeners = routes.get(method)!;
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
}

/** What both generations' ports do alike. */
export function basePort(client: Loose) {
  const list: ClientPort['list'] = async (method, params, options) =>
    invoke(client, sdkName[method], params, sdkOptions(options));
  return {
    serverName: () => {
      const name = asRecord(fn(client, 'getServerVersion')?.call(client))['name'];
      return (typeof name === 'string' && name) || undefined;
    },
    serverIdentity: () => {
      const info = asRecord(fn(client, 'getServerVersion')?.call(client));
      const { name, version } = info;
      return typeof name === 'string' && name
        ? `${name}@${typeof version === 'string' ? version : ''}`
        : undefined;
    },
    // A v2 client says the revision it negotiated; a v1 client's HTTP transport keeps it (stdio: none).
    protocolVersion: () => {
      const read = fn(client, 'getNegotiatedProtocolVersion');
      const version = read ? read.call(client) : asRecord(client['transport'])['protocolVersion'];
      return typeof version === 'string' ? version : undefined;
    },
    isConnected: () => client['transport'] !== undefined,
    serverCapabilities: () => {
      const capabilities = fn(client, 'getServerCapabilities')?.call(client);
      return isRecord(capabilities) ? capabilities : undefined;
    },
    registerCapabilities: (capabilities: Record<string, unknown>) =>
      void invoke(client, 'registerCapabilities', capabilities),
    list,
  };
}

/**
 * The headers of a raw request: the caller's, with `Mcp-Name: <taskId>` for the task methods
 * (SEP-2663), replacing any spelling of that name the caller gave (never sent twice).
 */
export function rawHeaders(
  method: string,
  params: Record<string, unknown>,
  given: Record<string, string> | undefined,
): Record<string, string> {
  const taskId = params['taskId'];
  const named = TASK_ID_METHODS.includes(method) && typeof taskId === 'string';
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(given ?? {}))
    if (!named || name.toLowerCase() !== 'mcp-name') headers[name] = value;
  if (named) headers['Mcp-Name'] = taskId;
  return headers;
}
