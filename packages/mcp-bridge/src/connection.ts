/**
 * A few-line connect on the v2 client: capabilities declared honestly, the waitFor attached before
 * connecting, the era negotiated (`auto`: probe with server/discover and fall back to initialize,
 * spec-digest §2.1), and call functions bound to the connection.
 */
import type { Answer, WaitFor } from '@waitfor/core';
import { attachWaitFor, type AttachOptions, type Attachment } from './attachWaitFor';
import { BridgeError, messageOf, toBridgeError } from './bridgeError';
import {
  callTool,
  getPrompt,
  readResource,
  resume,
  type CallOptions,
  type DurableCallOptions,
  type DurableOutcome,
  type ResumeOptions,
} from './calls';
import type { Suspension } from './eras/modern/suspension';
import { elicitationCapabilities } from './capabilities';
import { clientPort } from './clientPort';

/** Which era to speak: negotiate (`auto`, default), or pin one. */
export type EraChoice = 'auto' | 'legacy' | 'modern';

/** Options of connect. */
export interface ConnectOptions extends Omit<AttachOptions, 'waitFor' | 'v1Schemas'> {
  waitFor: WaitFor;
  /** clientInfo name (default "waitfor"). */
  name?: string;
  version?: string;
  era?: EraChoice;
}

/** A connected client with the bridge's call functions bound to it. */
export interface Connection {
  /** The v2 `Client` (for anything the bridge does not wrap). */
  readonly client: object;
  readonly era: 'legacy' | 'modern';
  readonly serverName: string;
  readonly attachment: Attachment;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options: DurableCallOptions,
  ): Promise<DurableOutcome>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: CallOptions & { durable?: false },
  ): Promise<Record<string, unknown>>;
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options: DurableCallOptions,
  ): Promise<DurableOutcome>;
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: CallOptions & { durable?: false },
  ): Promise<Record<string, unknown>>;
  readResource(params: { uri: string }, options: DurableCallOptions): Promise<DurableOutcome>;
  readResource(
    params: { uri: string },
    options?: CallOptions & { durable?: false },
  ): Promise<Record<string, unknown>>;
  /** Finish a suspended durable call (from this or any other connection to the server). */
  resume(
    suspension: Suspension,
    answers: readonly Answer[],
    options?: ResumeOptions,
  ): Promise<DurableOutcome>;
  /** tools/list (uses `signal` and `timeout`); an SDK failure becomes a BridgeError. */
  listTools(options?: CallOptions): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** The MCP protocol revision of the modern era. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

interface V2ClientModule {
  Client: new (
    info: { name: string; version: string },
    options: Record<string, unknown>,
  ) => object & {
    connect(transport: unknown): Promise<void>;
    close(): Promise<void>;
  };
}

/** @internal Connect a fresh v2 client over `transport` (built once the client module is loaded). */
export async function connectWith(
  createTransport: () => Promise<unknown>,
  options: ConnectOptions,
): Promise<Connection> {
  if (typeof options?.waitFor !== 'function')
    throw new BridgeError('invalid_options', 'connect needs options.waitFor');
  const era = options.era ?? 'auto';
  if (era !== 'auto' && era !== 'legacy' && era !== 'modern')
    throw new BridgeError('invalid_options', `Unknown era ${String(era)}`);
  const { Client } = (await import('@modelcontextprotocol/client')) as unknown as V2ClientModule;
  const client = new Client(
    { name: options.name ?? 'waitfor', version: options.version ?? '0.0.0' },
    {
      capabilities: elicitationCapabilities(options),
      versionNegotiation: { mode: era === 'modern' ? { pin: MODERN_PROTOCOL_VERSION } : era },
    },
  );
  const attachment = attachWaitFor(client, options);
  await attachment.ready;
  try {
    await client.connect(await createTransport());
  } catch (error) {
    attachment.detach();
    throw new BridgeError('client_error', `Could not connect: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const port = clientPort(client);
  const bind =
    (call: (client: object, ...rest: never[]) => unknown) =>
    (...rest: never[]) =>
      call(client, ...rest);
  const connection = {
    client,
    era: port.era() ?? 'legacy',
    serverName: attachment.host.serverName,
    attachment,
    callTool: bind(callTool),
    getPrompt: bind(getPrompt),
    readResource: bind(readResource),
    resume: bind(resume),
    listTools: (callOptions: CallOptions = {}) =>
      port
        .listTools({ signal: callOptions.signal, timeout: callOptions.timeout })
        .catch((error) => {
          throw toBridgeError(error, callOptions.signal);
        }),
    close: async () => {
      attachment.detach();
      await client.close();
    },
  };
  return connection as Connection;
}

/** Connect to a Streamable HTTP MCP server of either era (browser-safe; stdio lives on '/node'). */
export async function connect(
  target: { url: string | { href: string } },
  options: ConnectOptions,
): Promise<Connection> {
  if (typeof target !== 'object' || target === null || !('url' in target)) {
    throw new BridgeError(
      'invalid_options',
      'connect needs { url } (stdio: import connect from "@waitfor/mcp-bridge/node")',
    );
  }
  const url = typeof target.url === 'string' ? target.url : target.url.href;
  return connectWith(async () => {
    const { StreamableHTTPClientTransport } =
      (await import('@modelcontextprotocol/client')) as unknown as {
        StreamableHTTPClientTransport: new (url: unknown) => unknown;
      };
    const URLClass = (globalThis as unknown as { URL: new (value: string) => unknown }).URL;
    return new StreamableHTTPClientTransport(new URLClass(url));
  }, options);
}
