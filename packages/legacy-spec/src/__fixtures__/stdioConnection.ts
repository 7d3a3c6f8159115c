/**
 * Test helper: spawn a stdio MCP server and connect a REAL client of either SDK generation to it,
 * with the bridge attached (`attachWaitFor` before connect, so capabilities are declared).
 *
 * - `kind: 'v2'` — `@modelcontextprotocol/client`; `era: 'legacy'` (the SDK default, plain
 *   `initialize`) or `'auto'` (version negotiation: modern when the server speaks 2026-07-28).
 * - `kind: 'v1'` — `@modelcontextprotocol/sdk` Client (legacy era only).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as v1Types from '@modelcontextprotocol/sdk/types.js';
import type { WaitFor } from '@waitfor/core';
import {
  attachWaitFor,
  callTool,
  type Attachment,
  type BridgeExtension,
  type CallOptions,
} from '@waitfor/mcp-bridge';

/** Which client generation to use. */
export type ClientKind = 'v1' | 'v2';

/** A spawned server with an attached client. */
export interface StdioConnection {
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

/** Spawn `server` and connect a `kind` client with `waitFor` and `extensions` attached. */
export async function openStdio(
  kind: ClientKind,
  server: ServerCommand,
  options: { waitFor: WaitFor; extensions?: BridgeExtension[]; era?: 'legacy' | 'auto' },
): Promise<StdioConnection> {
  const info = { name: `legacy-spec-test-${kind}`, version: '1.0.0' };
  let client: { connect(transport: unknown): Promise<void>; close(): Promise<void> };
  let transport: unknown;
  if (kind === 'v2') {
    const mode = options.era === 'auto' ? 'auto' : 'legacy';
    client = new Client(info, { versionNegotiation: { mode } });
    transport = new StdioClientTransport({ ...server, stderr: 'ignore' });
  } else {
    client = new V1Client(info);
    transport = new V1StdioClientTransport({ ...server, stderr: 'ignore' });
  }
  const attachment = attachWaitFor(client, {
    waitFor: options.waitFor,
    extensions: options.extensions ?? [],
    v1Schemas: v1Types,
  });
  await attachment.ready;
  await client.connect(transport);
  return {
    client,
    attachment,
    callTool: (name, args, callOptions) => callTool(client, { name, arguments: args }, callOptions),
    close: async () => {
      attachment.detach();
      await client.close();
    },
  };
}
