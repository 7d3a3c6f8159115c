/**
 * The gateway over Streamable HTTP on 127.0.0.1 (or a host you name), both eras on one endpoint:
 * modern-era requests go to the SDK's per-request handler, legacy-era ones to a session of their
 * own (a pushed question needs the session: its answer comes back as a separate POST).
 * Bounded: at most `maxSessions` legacy sessions, bodies up to `maxBodyBytes`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
} from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { Gateway } from './gateway';

/** Options of serveHttp. */
export interface ServeHttpOptions {
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Default: any free port. */
  port?: number;
  /** Legacy-era sessions open at once (default 64); past it a new session gets HTTP 503. */
  maxSessions?: number;
  /** Request body bound (default 4 MiB); past it HTTP 413. */
  maxBodyBytes?: number;
}

/** A running HTTP endpoint of the gateway. */
export interface HttpEndpoint {
  /** e.g. http://127.0.0.1:PORT/mcp */
  readonly url: string;
  close(): Promise<void>;
}

class TooLarge extends Error {}

async function readBody(request: IncomingMessage, max: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > max) throw new TooLarge();
    chunks.push(chunk as Buffer);
  }
  if (chunks.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** Serve `gateway` over Streamable HTTP at `/mcp`. */
export async function serveHttp(
  gateway: Gateway,
  options: ServeHttpOptions = {},
): Promise<HttpEndpoint> {
  const maxSessions = options.maxSessions ?? 64;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const modern = toNodeHandler(
    createMcpHandler(() => gateway.createServer({ track: false }), { legacy: 'reject' }),
  );
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();

  const legacy = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) return existing.handleRequest(request, response, body);
    if (sessions.size >= maxSessions) return void response.writeHead(503).end('too many sessions');
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id: string) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await gateway.createServer().connect(transport);
    return transport.handleRequest(request, response, body);
  };

  const server = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request, maxBody) : undefined;
      if (await isLegacyRequest(await toWebRequest(request, body ?? null), body))
        await legacy(request, response, body);
      else await modern(request, response, body);
    })().catch((error: unknown) => {
      if (response.headersSent) return void response.end();
      response.writeHead(error instanceof TooLarge ? 413 : 500).end();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.hostname ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.hostname ?? '127.0.0.1'}:${port}/mcp`,
    close: async () => {
      await Promise.all(
        [...sessions.values()].map((transport) => transport.close().catch(() => undefined)),
      );
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
