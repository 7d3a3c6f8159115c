/**
 * A few-line connect on the v2 client: capabilities declared honestly, the waitFor attached before
 * connecting, the era negotiated (`auto`: probe with server/discover and fall back to initialize,
 * as the spec's SEP-2575 section on statelessness says), and call functions bound to the
 * connection. Over Streamable HTTP it takes the transport's options (headers, fetch, OAuth), shows
 * its state and reconnects with backoff.
 */
import type {
  AuthProvider,
  CallToolResult,
  FetchLike,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListToolsResult,
  OAuthClientProvider,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import type { Answer, WaitFor } from '@waitfor/core';
import { isAborted, isRecord } from '@waitfor/runtime';
import {
  attachWaitFor,
  type AttachOptions,
  type Attachment,
  type Bridge,
  type ListOptions,
} from './attachWaitFor';
import { BridgeError, messageOf } from './bridgeError';
import type { CallOptions, DurableCallOptions, ResumeOptions } from './callOptions';
import type { BridgeTasks } from './tasks/types';
import type { DurableOutcome, Suspension, TaskSuspension } from './types';
import { MODERN_PROTOCOL_VERSION, type ProtocolEra } from './protocol';
import type { ReconnectOptions } from './connect/backoff';
import { guardWaitFor } from './connect/guardedWaitFor';
import { ConnectionLife, type LifeClient, type TransportSource } from './connect/life';
import { createConnectionStore, type ConnectionStore } from './connect/state';

/** Which era to speak: negotiate (`auto`, default), or pin one. */
export type EraChoice = 'auto' | ProtocolEra;

/** Options of connect. */
export interface ConnectOptions extends Omit<AttachOptions, 'waitFor' | 'v1Schemas'> {
  waitFor: WaitFor;
  /** clientInfo name (default "waitfor"). */
  name?: string;
  version?: string;
  era?: EraChoice;
  /**
   * Streamable HTTP: notice a lost connection (a failed fetch, a cut stream a ping confirms, an
   * unknown session) and connect again with backoff (`true`: the defaults). Off by default: the
   * connection then behaves as the SDK's, and only closes when its transport does.
   */
  reconnect?: ReconnectOptions | boolean;
}

/** A Streamable HTTP server, with what the SDK's transport takes. */
export interface HttpTarget {
  url: string | { href: string };
  /** Sent on every request (the transport's own headers, e.g. a provider's token, win). */
  headers?: Record<string, string>;
  /** The SDK transport's `requestInit` (its `headers` are merged under `headers`). */
  requestInit?: { headers?: Record<string, string> } & Record<string, unknown>;
  fetch?: FetchLike;
  /** A bearer `AuthProvider` or an OAuth `OAuthClientProvider`, as the SDK transport takes them. */
  authProvider?: AuthProvider | OAuthClientProvider;
  /**
   * OAuth: after the provider sent the person to authorize, the callback's parameters (or just the
   * code); connect then finishes the authorization and connects again, once.
   */
  authorizationCallback?: () => Promise<string | { get(name: string): string | null }>;
}

/** A connected client with the bridge's call functions bound to it, results typed as the SDK's. */
export interface Connection {
  /** The v2 `Client` (for anything the bridge does not wrap). */
  readonly client: object;
  readonly era: ProtocolEra;
  readonly serverName: string;
  /** The bridge attached to the client (open Requests, events). */
  readonly attachment: Attachment & Pick<Bridge, 'openRequests' | 'on'>;
  /** connecting → connected ⇄ reconnecting → closed, for a UI (`getSnapshot`/`subscribe`). */
  readonly state: ConnectionStore;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options: DurableCallOptions,
  ): Promise<DurableOutcome<CallToolResult>>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: CallOptions & { durable?: false },
  ): Promise<CallToolResult>;
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options: DurableCallOptions,
  ): Promise<DurableOutcome<GetPromptResult>>;
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: CallOptions & { durable?: false },
  ): Promise<GetPromptResult>;
  readResource(
    params: { uri: string },
    options: DurableCallOptions,
  ): Promise<DurableOutcome<ReadResourceResult>>;
  readResource(
    params: { uri: string },
    options?: CallOptions & { durable?: false },
  ): Promise<ReadResourceResult>;
  /** The server identity task references are written with and checked against (`serverId`). */
  readonly serverId: string;
  /** Finish a suspended durable call (from this or any other connection to the server); as Bridge's. */
  resume(
    suspension: Suspension | TaskSuspension,
    answers: readonly Answer[],
    options?: ResumeOptions,
  ): Promise<DurableOutcome>;
  /** Task-backed calls as handles: start, get, cancel, list. */
  readonly tasks: BridgeTasks;
  /** tools/list, one page (`cursor`: the previous page's `nextCursor`); failures are BridgeErrors. */
  listTools(options?: ListOptions): Promise<ListToolsResult>;
  /** prompts/list, one page, as listTools. */
  listPrompts(options?: ListOptions): Promise<ListPromptsResult>;
  /** resources/list, one page, as listTools. */
  listResources(options?: ListOptions): Promise<ListResourcesResult>;
  /**
   * OAuth, mid-session: a call refused for want of authorization (a scope step-up, a new
   * authorization server) fails with the SDK's UnauthorizedError as `cause` once the provider sent
   * the person to authorize; finish with the callback's parameters (or the code), then call again.
   */
  finishAuth(callback: string | { get(name: string): string | null }): Promise<void>;
  close(): Promise<void>;
}

/** The v2 SDK's client module (a peer: loaded when a connection is made). */
const sdk = () =>
  import('@modelcontextprotocol/client') as unknown as Promise<{
    Client: new (
      info: { name: string; version: string },
      options: Record<string, unknown>,
    ) => LifeClient;
    StreamableHTTPClientTransport: new (url: unknown, options: unknown) => unknown;
  }>;

/** The options checked; the era to negotiate. Throws 'invalid_options'. */
function checkConnectOptions(options: ConnectOptions): EraChoice {
  if (typeof options?.waitFor !== 'function')
    throw new BridgeError('invalid_options', 'connect needs options.waitFor');
  const era = options.era ?? 'auto';
  if (!['auto', 'legacy', 'modern'].includes(era))
    throw new BridgeError('invalid_options', `Unknown era ${String(era)}`);
  return era;
}

/** How a lost connection is retried: off (no attempts) unless the transport can and the host asked. */
function retryOf(transports: TransportSource, options: ConnectOptions): ReconnectOptions {
  const reconnect = transports.reconnects && options.reconnect;
  return reconnect === true ? {} : reconnect || { maxAttempts: 0 };
}

/** @internal Connect a fresh v2 client over the transports `source` makes. */
export async function connectWith(
  transports: TransportSource,
  options: ConnectOptions,
): Promise<Connection> {
  const era = checkConnectOptions(options);
  const { Client } = await sdk();
  const client = new Client(
    { name: options.name ?? 'waitfor', version: options.version ?? '0.0.0' },
    // No capabilities here: attachWaitFor declares them (registered before connect).
    { versionNegotiation: { mode: era === 'modern' ? { pin: MODERN_PROTOCOL_VERSION } : era } },
  );
  const [state, setState] = createConnectionStore();
  // Lost (with the cause): every open question ends connection_lost, and new ones until restored.
  const questions = guardWaitFor(options.waitFor);
  const attachment = attachWaitFor(client, { ...options, waitFor: questions.waitFor });
  const life = new ConnectionLife({
    client,
    transports,
    questions,
    setStatus: setState,
    connected: () => state.getSnapshot().status === 'connected',
    retry: retryOf(transports, options),
    detach: () => attachment.detach(),
  });
  await attachment.ready;
  await life.open().catch((error: unknown) => {
    attachment.detach();
    throw new BridgeError('client_error', `Could not connect: ${messageOf(error)}`, {
      cause: error,
    });
  });
  setState('connected');
  life.watchErrors();
  // The bridge's own methods and getters, read through the prototype (no copy to keep in step).
  return Object.assign(Object.create(attachment) as object, {
    client,
    attachment,
    state,
    finishAuth: life.finishAuth,
    close: life.close,
  }) as unknown as Connection;
}

/** Connect to a Streamable HTTP MCP server of either era (browser-safe; stdio lives on '/node'). */
export async function connect(target: HttpTarget, options: ConnectOptions): Promise<Connection> {
  if (!isRecord(target) || !('url' in target))
    throw new BridgeError(
      'invalid_options',
      'connect needs { url } (stdio: @waitfor/mcp-bridge/node)',
    );
  const url = typeof target.url === 'string' ? target.url : target.url.href;
  const baseFetch =
    target.fetch ?? (globalThis as unknown as { fetch: FetchLike }).fetch.bind(globalThis);
  return connectWith(
    {
      // The target's authorizationCallback, as a transport source reads it.
      ...target,
      reconnects: true,
      create: async (lost) =>
        new (await sdk()).StreamableHTTPClientTransport(
          new (globalThis as unknown as { URL: new (value: string) => unknown }).URL(url),
          {
            requestInit: {
              ...target.requestInit,
              headers: { ...target.requestInit?.headers, ...target.headers },
            },
            // The transport's own fetch reports what only the network knows: the server is gone
            // (fetch rejects) or no longer knows the session (404 to a request that named one).
            fetch: (async (input, init) => {
              try {
                const response = await baseFetch(input, init);
                // The SDK's transport hands fetch a Headers object.
                const headers = init?.headers as { get?(name: string): string | null } | undefined;
                if (response.status === 404 && headers?.get?.('mcp-session-id') != null)
                  lost(new BridgeError('client_error', 'Unknown session'));
                return response;
              } catch (error) {
                if (!isAborted(init?.signal as never)) lost(error);
                throw error;
              }
            }) satisfies FetchLike,
            authProvider: target.authProvider,
          },
        ),
    },
    // A task reference names the server by its URL unless the host names it otherwise.
    { ...options, serverId: options.serverId || url },
  );
}
