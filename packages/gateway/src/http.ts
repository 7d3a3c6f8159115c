/**
 * The gateway over Streamable HTTP on 127.0.0.1 (or a host you name), both eras on one endpoint:
 * modern-era requests go to the SDK's per-request handler, legacy-era ones to a session of their
 * own (a pushed question needs the session: its answer comes back as a separate POST).
 * Bounded: at most `maxSessions` legacy sessions, bodies up to `maxBodyBytes`.
 *
 * Refused before anything is read (DNS rebinding: a web page that resolves its own name to this
 * address must not reach the endpoint — the transport spec's Origin MUST): a `Host` that is not
 * one of `allowedHosts` and an `Origin` that is not one of `allowedOrigins` get 403; a path other
 * than `/mcp` gets 404, and so does a legacy-era request naming a session the gateway does not
 * hold (ended, or never opened), as the transport spec says, so the host starts a new one.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
} from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
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
  /**
   * Host names (no port; IPv6 in brackets) a request's `Host` may name; others get 403. Default:
   * `localhost`, `127.0.0.1` and `[::1]` when bound to a loopback address, else the bound address
   * only — bound to every interface (`0.0.0.0`, `::`) it must be given.
   */
  allowedHosts?: readonly string[];
  /** Host names a browser request's `Origin` may name (a request without one passes); default allowedHosts. */
  allowedOrigins?: readonly string[];
}

/** A running HTTP endpoint of the gateway. */
export interface HttpEndpoint {
  /** e.g. http://127.0.0.1:PORT/mcp */
  readonly url: string;
  close(): Promise<void>;
}

class TooLarge extends Error {}

const loopback = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);
const everyInterface = new Set(['0.0.0.0', '::', '[::]']);

/** The Host names the endpoint answers to (see ServeHttpOptions.allowedHosts). */
function hostsFor(hostname: string, allowed: readonly string[] | undefined): string[] {
  if (allowed !== undefined) return [...allowed];
  if (loopback.has(hostname)) return localhostAllowedHostnames();
  if (everyInterface.has(hostname))
    throw new TypeError(
      `serveHttp: bound to every interface (${hostname}), name the host names it answers to in allowedHosts`,
    );
  return [hostname.includes(':') ? `[${hostname}]` : hostname];
}

/** A JSON-RPC error response with no id, as the SDK's transports send for a refused request. */
function refuse(response: ServerResponse, status: number, code: number, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Why a request is refused before its body is read (undefined: it may proceed). */
function refusal(
  request: IncomingMessage,
  hosts: string[],
  origins: string[],
): [number, string] | undefined {
  const host = validateHostHeader(request.headers.host, hosts);
  if (!host.ok) return [403, host.message];
  const origin = validateOriginHeader(request.headers.origin, origins);
  if (!origin.ok) return [403, origin.message];
  // An absolute-form target the URL parser refuses (`http://[`) is no path of ours either.
  const target = request.url ?? '/';
  const path = URL.canParse(target, 'http://gateway')
    ? new URL(target, 'http://gateway').pathname
    : undefined;
  if (path !== '/mcp') return [404, 'Not found'];
  return undefined;
}
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
  const hostname = options.hostname ?? '127.0.0.1';
  const hosts = hostsFor(hostname, options.allowedHosts);
  const origins = options.allowedOrigins === undefined ? hosts : [...options.allowedOrigins];
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
    if (sessionId !== undefined) return refuse(response, 404, -32001, 'Session not found');
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
    const refused = refusal(request, hosts, origins);
    if (refused !== undefined) return refuse(response, refused[0], -32000, refused[1]);
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
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, hostname, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}/mcp`,
    close: async () => {
      await Promise.all(
        [...sessions.values()].map((transport) => transport.close().catch(() => undefined)),
      );
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
