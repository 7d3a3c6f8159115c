/**
 * Serves the hostile server (hostileServer.ts) over Streamable HTTP on 127.0.0.1:<ephemeral> for
 * both eras at one URL: 2026-07-28 traffic goes to the SDK's `createMcpHandler` (modern only), 2025
 * traffic to session-ful `NodeStreamableHTTPServerTransport`s, because a legacy server must keep the
 * tools/call open while its pushed `elicitation/create` is answered on another POST.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
} from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { HostileLog } from './hostileServer';
import { createHostileLog, createHostileServer } from './hostileServer';

/** A running hostile HTTP server. */
export interface HostileHttpServer {
  url: string;
  log: HostileLog;
  /** Every JSON body the clients POSTed, parsed but unchecked (with `recordBodies` only). */
  bodies: unknown[];
  /** The 2025 sessions open right now (one per client initialize, gone with its DELETE or close). */
  sessionCount(): number;
  /** Drops every open connection and stops listening: the server vanishes mid-round. */
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  return body === '' ? undefined : JSON.parse(body);
}

/** Starts the hostile server on 127.0.0.1 with an ephemeral port. */
export async function startHostileHttpServer(
  options: { recordBodies?: boolean } = {},
): Promise<HostileHttpServer> {
  const log = createHostileLog();
  // The wire as the client sent it, before any SDK schema reads (and reshapes) it.
  const bodies: unknown[] = [];
  // `vanish` closes this very server, mid-round.
  const onVanish = () => void server.close();
  const modern = createMcpHandler(() => createHostileServer('modern', log, { onVanish }), {
    legacy: 'reject',
  });
  const modernNode = toNodeHandler(modern);
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();

  const legacy = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) return existing.handleRequest(request, response, body);
    if (request.method !== 'POST') {
      response.writeHead(400).end();
      return;
    }
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await createHostileServer('legacy', log, { onVanish }).connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const http = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await readJson(request) : undefined;
      if (options.recordBodies && body !== undefined) bodies.push(body);
      const isLegacy =
        request.method !== 'POST' ||
        request.headers['mcp-session-id'] !== undefined ||
        (await isLegacyRequest(await toWebRequest(request, body), body));
      if (isLegacy) await legacy(request, response, body);
      else await modernNode(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  // A client that spends seconds on a huge (allowed) form between two legs must not find its
  // kept-alive socket closed under it (Node's default: 5 s), which fails the next POST with EPIPE.
  http.keepAliveTimeout = 120_000;
  // A v1 client answers each of up to 1,400 pushes with a POST of its own, all at once: past Node's
  // default accept queue (511) the kernel drops connections, and one whose retries run out is an
  // answer lost (the call then waits on it to its bound).
  await new Promise<void>((resolve) =>
    http.listen({ port: 0, host: '127.0.0.1', backlog: 4_096 }, resolve),
  );
  const { port } = http.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const server: HostileHttpServer = {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    bodies,
    sessionCount: () => sessions.size,
    close() {
      closed ??= (async () => {
        http.closeAllConnections();
        await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
        await modern.close();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      })();
      return closed;
    },
  };
  return server;
}

/**
 * The hostile server over HTTP for the enclosing suite: started before it, closed after it, its
 * log emptied before each test. Read its fields inside tests only.
 */
export function useHostileHttpServer(): Pick<HostileHttpServer, 'url' | 'log' | 'bodies'> {
  let server: HostileHttpServer | undefined;
  beforeAll(async () => {
    server = await startHostileHttpServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    if (server !== undefined) server.log.entries.length = 0;
  });
  const get = () => {
    if (server === undefined)
      throw new Error('the hostile server is not running: read it in a test');
    return server;
  };
  return {
    get url() {
      return get().url;
    },
    get log() {
      return get().log;
    },
    get bodies() {
      return get().bodies;
    },
  };
}
