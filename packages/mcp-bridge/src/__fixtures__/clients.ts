/**
 * Test harness: real clients of both SDK generations over real transports, with the bridge
 * attached. `openClient(kind, transport, server, options)` → `{ client, close }`.
 *
 * kinds: 'v2-modern' (v2 client pinned to 2026-07-28), 'v2-legacy' (v2 client, 2025 handshake),
 * 'v1' (@modelcontextprotocol/sdk client). transports: 'http' (needs a running fixture URL) and
 * 'stdio' (spawns dualEraServerStdio.ts with tsx).
 */
import { fileURLToPath } from 'node:url';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as v1Types from '@modelcontextprotocol/sdk/types.js';
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { afterAll, beforeAll } from 'vitest';
import {
  attachWaitFor,
  elicitationCapabilities,
  type AttachOptions,
  type Attachment,
  type Bridge,
} from '../index';
import { connect } from '../node';
import {
  startDualEraHttpServer,
  type DualEraHttpServer,
  type DualEraServerOptions,
} from './dualEraServer';

/** The tsx binary of the workspace (runs TypeScript fixtures as child processes). */
export const tsxBinary = fileURLToPath(
  new URL('../../../../node_modules/.bin/tsx', import.meta.url),
);
/** The stdio entry of the dual-era fixture. */
export const stdioFixture = fileURLToPath(new URL('./dualEraServerStdio.ts', import.meta.url));
/** The v1 push fixture (stdio). */
export const v1PushFixture = fileURLToPath(new URL('./v1PushServer.ts', import.meta.url));

/** Which client generation and era. */
export type ClientKind = 'v2-modern' | 'v2-legacy' | 'v1';
/** Which transport. */
export type TransportKind = 'http' | 'stdio';

/**
 * How the bridge is attached: by the host (`attachWaitFor` on a client it made) or by the facade
 * (`connect`, a v2 client only). Tests of concurrency, bounds and warnings run through both, so
 * the facade can never be the weaker path.
 */
export type BridgePath = 'attachWaitFor' | 'connect';

/** Every client kind through every path that can drive it: [path, kind, era] for describe.each. */
export const bridgePaths: ReadonlyArray<[BridgePath, ClientKind, 'legacy' | 'modern']> = [
  ['attachWaitFor', 'v2-modern', 'modern'],
  ['attachWaitFor', 'v2-legacy', 'legacy'],
  ['attachWaitFor', 'v1', 'legacy'],
  ['connect', 'v2-modern', 'modern'],
  ['connect', 'v2-legacy', 'legacy'],
];

/** What a test calls through: the bridge's methods (a connection has the same). */
export type Calls = Pick<
  Bridge,
  'callTool' | 'getPrompt' | 'readResource' | 'resume' | 'listTools' | 'era'
>;

/** An opened, attached client. */
export interface OpenClient {
  client: V2Client | V1Client;
  attachment: Attachment;
  /** The bridge attached to it (`connect`: the connection), whose methods the calls go through. */
  bridge: Calls;
  close(): Promise<void>;
}

/**
 * Open a client of `kind` over `transport` with the bridge attached before connecting, by `path`
 * (default `attachWaitFor`; `connect` takes a v2 kind and pins its era).
 */
export async function openClient(
  kind: ClientKind,
  transport: TransportKind,
  target: { url?: string; command?: string; args?: string[] },
  options: AttachOptions,
  path: BridgePath = 'attachWaitFor',
): Promise<OpenClient> {
  const info = { name: 'waitfor-test', version: '1.0.0' };
  const command = target.command ?? tsxBinary;
  const args = target.args ?? [stdioFixture];
  if (path === 'connect') {
    if (kind === 'v1' || options.waitFor === undefined)
      throw new Error('connect drives a v2 client with a waitFor');
    const connection = await connect(
      transport === 'http' ? { url: target.url as string } : { command, args },
      { ...options, waitFor: options.waitFor, era: kind === 'v2-modern' ? 'modern' : 'legacy' },
    );
    return {
      client: connection.client as V2Client,
      attachment: connection.attachment,
      bridge: connection as unknown as Calls,
      close: () => connection.close(),
    };
  }
  if (kind === 'v1') {
    const client = new V1Client(info, { capabilities: elicitationCapabilities(options) as never });
    const attachment = attachWaitFor(client, { ...options, v1Schemas: v1Types });
    await attachment.ready;
    await client.connect(
      transport === 'http'
        ? new V1Http(new URL(target.url as string))
        : new V1Stdio({ command, args, stderr: 'ignore' }),
    );
    return { client, attachment, bridge: attachment, close: () => client.close() };
  }
  const client = new V2Client(info, {
    capabilities: elicitationCapabilities(options) as never,
    ...(kind === 'v2-modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  });
  const attachment = attachWaitFor(client, options);
  await attachment.ready;
  await client.connect(
    transport === 'http'
      ? new V2Http(new URL(target.url as string))
      : new V2Stdio({ command, args, stderr: 'ignore' }),
  );
  return { client, attachment, bridge: attachment, close: () => client.close() };
}

/** Open a client as `openClient` does, run `body` with it, and close it however `body` ends. */
export async function withOpenClient(
  kind: ClientKind,
  transport: TransportKind,
  target: { url?: string; command?: string; args?: string[] },
  options: AttachOptions,
  body: (client: OpenClient['client'], bridge: Calls) => Promise<void>,
  path: BridgePath = 'attachWaitFor',
): Promise<void> {
  const { client, bridge, close } = await openClient(kind, transport, target, options, path);
  try {
    await body(client, bridge);
  } finally {
    await close();
  }
}

/** A scripted person: answers every Request with `script(request)` and records what it saw. */
export function scriptedPerson(
  script: (request: Request, index: number) => Answer | Promise<Answer>,
) {
  const seen: Request[] = [];
  const waitFor: WaitFor = async (request) => {
    seen.push(request);
    return script(request, seen.length - 1);
  };
  return { waitFor, seen };
}

/** A person who holds every question (with its signal) until the test answers it. */
export function heldPerson() {
  const open: Array<{
    request: Request;
    signal: AbortSignal | undefined;
    answer(a: Answer): void;
  }> = [];
  const waitFor: WaitFor = (request, context) =>
    new Promise<Answer>((resolve) => {
      open.push({ request, signal: context?.signal as AbortSignal | undefined, answer: resolve });
    });
  return { waitFor, open };
}

/** Wait `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The text of the first content block of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content;
  return content?.[0]?.text ?? '';
}

/**
 * Start a dual-era HTTP fixture before the enclosing suite and close it after; the returned handle
 * reads the running server, so use it inside tests and hooks only.
 */
export function useDualEraServer(options: DualEraServerOptions = {}): DualEraHttpServer {
  let server: DualEraHttpServer | undefined;
  beforeAll(async () => {
    server = await startDualEraHttpServer(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  // Fail loudly rather than read `undefined` when a suite touches the server outside its hooks.
  const running = (): DualEraHttpServer => {
    if (!server) throw new Error('the dual-era fixture is not running: read it inside a test');
    return server;
  };
  return {
    get url() {
      return running().url;
    },
    get received() {
      return running().received;
    },
    close: () => running().close(),
  };
}
