/**
 * Test helper: connect a REAL client of either SDK generation to a stdio MCP server it spawns
 * (`openStdio`) or to a Streamable HTTP server (`openHttp`), with the bridge attached
 * (`attachWaitFor` before connect, so capabilities are declared).
 *
 * - `kind: 'v2'` — `@modelcontextprotocol/client`; `era: 'legacy'` (the SDK default, plain
 *   `initialize`) or `'auto'` (version negotiation: modern when the server speaks 2026-07-28).
 * - `kind: 'v1'` — `@modelcontextprotocol/sdk` Client (legacy era only).
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as v1Types from '@modelcontextprotocol/sdk/types.js';
import type { WaitFor } from '@waitfor/core';
import {
  attachWaitFor,
  type Attachment,
  type BridgeExtension,
  type CallOptions,
  type ElicitationMode,
} from '@waitfor/mcp-bridge';

/** Which client generation to use. */
export type ClientKind = 'v1' | 'v2';

/** A connected client with the bridge attached. */
export interface OpenConnection {
  client: object;
  attachment: Attachment;
  /** The bridge's callTool on this client. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** How to start a server process. */
export interface ServerCommand {
  command: string;
  args: string[];
}

const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));

/** A TypeScript fixture of this folder, run through tsx. */
export const fixtureServer = (file: string): ServerCommand => ({
  command: tsx,
  args: [fileURLToPath(new URL(`./${file}`, import.meta.url))],
});

/** `@modelcontextprotocol/server-everything` over stdio (a v1 SDK server). */
export const everythingServer = (): ServerCommand => ({
  command: process.execPath,
  args: [
    fileURLToPath(
      new URL(
        '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
        import.meta.url,
      ),
    ),
    'stdio',
  ],
});

/** What to attach and which era a v2 client negotiates. */
export interface OpenOptions {
  waitFor: WaitFor;
  extensions?: BridgeExtension[];
  /** Elicitation modes the client declares (default form and url). */
  modes?: ElicitationMode[];
  era?: 'legacy' | 'auto';
}

/** Spawn `server` and connect a `kind` client with `waitFor` and `extensions` attached. */
export function openStdio(
  kind: ClientKind,
  server: ServerCommand,
  options: OpenOptions,
): Promise<OpenConnection> {
  return open(kind, options, () =>
    kind === 'v2'
      ? new StdioClientTransport({ ...server, stderr: 'ignore' })
      : new V1StdioClientTransport({ ...server, stderr: 'ignore' }),
  );
}

/** Connect a `kind` client over Streamable HTTP to `url` with `waitFor` and `extensions` attached. */
export function openHttp(
  kind: ClientKind,
  url: string,
  options: OpenOptions,
): Promise<OpenConnection> {
  return open(kind, options, () =>
    kind === 'v2'
      ? new StreamableHTTPClientTransport(new URL(url))
      : new V1StreamableHTTPClientTransport(new URL(url)),
  );
}

async function open(
  kind: ClientKind,
  options: OpenOptions,
  createTransport: () => unknown,
): Promise<OpenConnection> {
  const info = { name: `legacy-spec-test-${kind}`, version: '1.0.0' };
  const mode = options.era === 'auto' ? 'auto' : 'legacy';
  const client: { connect(transport: unknown): Promise<void>; close(): Promise<void> } =
    kind === 'v2' ? new Client(info, { versionNegotiation: { mode } }) : new V1Client(info);
  const transport = createTransport();
  const attachment = attachWaitFor(client, {
    waitFor: options.waitFor,
    extensions: options.extensions ?? [],
    v1Schemas: v1Types,
    ...(options.modes === undefined ? {} : { modes: options.modes }),
  });
  await attachment.ready;
  await client.connect(transport);
  return {
    client,
    attachment,
    callTool: (name, args, callOptions) =>
      attachment.callTool({ name, arguments: args }, callOptions),
    close: async () => {
      attachment.detach();
      await client.close();
    },
  };
}
