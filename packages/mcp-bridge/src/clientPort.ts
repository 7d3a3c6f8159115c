/**
 * One SDK-neutral view of an MCP client of either generation. The SDKs are peer dependencies: the
 * port never imports them at run time and reads clients structurally, so a host with only one SDK
 * installed (or a browser with only the v2 client) works. The generation is chosen once, when the
 * port is made; each generation lives in its own file with the same shape:
 *
 * - `clientPort/v2.ts` (`@modelcontextprotocol/client`): detected by `getProtocolEra`; handlers by
 *   method name; both eras.
 * - `clientPort/v1.ts` (`@modelcontextprotocol/sdk`): legacy era only; handlers need the SDK's zod
 *   request schemas, from `options.v1Schemas` or, lazily, `@modelcontextprotocol/sdk/types.js`.
 *
 * What the port does to an SDK beyond its public API lives in `clientPort/sdkWorkarounds.ts`.
 */
import type { CallProgress } from './callOptions';
import type { AbortSignalLike } from '@waitfor/core';
import { isRecord } from '@waitfor/runtime';
import { BridgeError } from './bridgeError';
import { fn, type Loose } from './clientPort/shared';
import { createV1Port } from './clientPort/v1';
import { createV2Port } from './clientPort/v2';
import type { CallMethod, ListMethod, ProtocolEra } from './protocol';

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
  /**
   * One modern-era call's legs (the same object for each): the first tools/call leg records the
   * `Mcp-Param-*` headers it sent, and the retries send them again, as the SDK's own loop does.
   */
  legs?: { headers?: unknown } | undefined;
  /** The SDKs' progress options, passed through as named. */
  onprogress?: ((progress: CallProgress) => void) | undefined;
  resetTimeoutOnProgress?: boolean | undefined;
  maxTotalTimeout?: number | undefined;
}

/** The SDK-neutral client. */
export interface ClientPort {
  era(): ProtocolEra | undefined;
  serverName(): string | undefined;
  isConnected(): boolean;
  /** v1 only: the schemas later registrations use (the last given win). */
  useSchemas?(schemas: V1Schemas): void;
  registerCapabilities(capabilities: Record<string, unknown>): void;
  setRequestHandler(method: InboundMethod, handler: InboundHandler): Promise<() => void>;
  onNotification(method: string, handler: (params: Record<string, unknown>) => void): () => void;
  call(
    method: CallMethod,
    params: Record<string, unknown>,
    options: PortCallOptions,
  ): Promise<unknown>;
  list(
    method: ListMethod,
    params: Record<string, unknown> | undefined,
    options: PortCallOptions,
  ): Promise<unknown>;
}

/** A fresh SDK-neutral view of `client` (an object with the methods of an MCP client of either generation). */
export function createClientPort(client: object): ClientPort {
  const loose = client as Loose;
  if (
    !isRecord(client) ||
    !fn(loose, 'setRequestHandler') ||
    !fn(loose, 'request') ||
    !fn(loose, 'connect')
  )
    throw new BridgeError('invalid_options', 'Not an MCP Client (v1 or v2 SDK)');
  return fn(loose, 'getProtocolEra') ? createV2Port(loose) : createV1Port(loose);
}
