/**
 * The gateway over Streamable HTTP on 127.0.0.1 (or a host you name), both eras on one endpoint:
 * modern-era requests go to the SDK's per-request handler, legacy-era ones to a session of their
 * own (a pushed question needs the session: its answer comes back as a separate POST).
 *
 * Invariants, checked before a body is read:
 * - every request names an allowed `Host` and, when it carries one, an allowed `Origin` (else 403):
 *   a web page the person visits cannot reach a gateway on their machine by DNS rebinding;
 * - only `/mcp` is served (else 404; so is a request target the URL parser refuses);
 * - a legacy-era request naming a session this endpoint does not hold (never opened, deleted,
 *   expired) is answered 404, so the client starts a new session; one naming none is answered 400
 *   unless it is an `initialize`, and only an `initialize` opens a session.
 * - a 2026-07-28 tools/call served for a gateway has its `Mcp-Param-*` headers checked against its
 *   arguments and the upstream's tool schemas (SEP-2243, toolSchemas.ts); any host's tools/list
 *   makes the next call fetch the upstream's list afresh.
 * Bounded: at most `maxSessions` legacy sessions (an idle one expires after `sessionIdleMs`, and
 * gives its place to a new one when the endpoint is full: legacySessions.ts), bodies up to
 * `maxBodyBytes`, 2026-07-28 listen streams (`maxListeners`, `maxListenersPerHost`: listen.ts) and
 * the resources they subscribe to upstream (`maxResourcesPerListen`, `maxResourceSubscriptions`,
 * `maxResourceUriLength`: resourceListens.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/client';
import { toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { isRecord } from '@waitfor/runtime';
import type { Gateway } from './gateway';
import { systemClock, type Clock } from './holds';
import { LegacySessions, refuse, type ServerFactory } from './legacySessions';
import { ListenLimits, responseStream, toServerEvent } from './listen';
import { ResourceListens } from './resourceListens';
import { ToolSchemas } from './toolSchemas';

/** Options of serveHttp. */
export interface ServeHttpOptions {
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Default: any free port. */
  port?: number;
  /**
   * Legacy-era sessions open at once (default 64). When full, a new session takes the place of the
   * longest-idle one; only when every one is busy does it get HTTP 503.
   */
  maxSessions?: number;
  /**
   * How long a legacy-era session may stay idle — no request in flight, no GET or SSE stream open,
   * no call or question of its host unanswered — before it is closed (its id then gets 404);
   * default 5 minutes (a connected SDK client keeps its GET stream open, so this is how long the
   * session of a host that left without a DELETE holds its place and its upstream session).
   */
  sessionIdleMs?: number;
  /** Timers (tests inject a fake clock; pass the gateway's). */
  clock?: Clock;
  /** Request body bound (default 4 MiB); past it HTTP 413. */
  maxBodyBytes?: number;
  /**
   * Host names (no port; IPv6 in brackets) a request's `Host` may name; others get 403. Default:
   * `localhost`, `127.0.0.1` and `[::1]` when bound to a loopback address, else the bound address
   * only — bound to every interface (`0.0.0.0`, `::`) it must be given.
   */
  allowedHosts?: readonly string[];
  /**
   * Host names a request's `Origin` may name when it carries one (browsers do; other clients send
   * none and pass). Default on a loopback address: allowedHosts; elsewhere none.
   */
  allowedOrigins?: readonly string[];
  /** 2026-07-28 `subscriptions/listen` streams open at once (default 256); past it -32603. */
  maxListeners?: number;
  /** The same per host: its remote address and client name (default 16). */
  maxListenersPerHost?: number;
  /** URIs one listen's `resourceSubscriptions` may name (default 32); past it -32603. */
  maxResourcesPerListen?: number;
  /**
   * Distinct URIs the gateway subscribes upstream for its listens at once (default 64); a listen
   * that would pass it gets -32603.
   */
  maxResourceSubscriptions?: number;
  /** Characters a subscribed URI may have (default 2048); past it -32602. */
  maxResourceUriLength?: number;
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

/** The allowlists in force: the operator's, else localhost names on a loopback bind. */
function allowlists(hostname: string, options: ServeHttpOptions) {
  const local = loopback.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
  const hosts = hostsFor(hostname, local, options.allowedHosts);
  // Off loopback no browser page is let in unless the operator names its origin.
  return { hosts, origins: [...(options.allowedOrigins ?? (local ? hosts : []))] };
}

/** The Host names the endpoint answers to (see ServeHttpOptions.allowedHosts). */
function hostsFor(
  hostname: string,
  local: boolean,
  allowed: readonly string[] | undefined,
): string[] {
  if (allowed !== undefined) return [...allowed];
  if (local) return localhostAllowedHostnames();
  if (everyInterface.has(hostname))
    throw new TypeError(
      `serveHttp on every interface (${hostname}) needs allowedHosts: the host names clients reach it by`,
    );
  return [hostname.includes(':') ? `[${hostname}]` : hostname];
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

/** How long the upstream's tool list is waited for, per page, before a tools/call is refused. */
const listTimeoutMs = 30_000;

/** Connections waiting to be accepted (the kernel caps it at its somaxconn, 4096 on Linux today). */
const ACCEPT_BACKLOG = 4_096;

/** How long a host's idle kept-alive connection stays open (Node's default is 5 s). */
const KEEP_ALIVE_MS = 65_000;

/** Serve `gateway` over Streamable HTTP at `/mcp`. */
export function serveHttp(gateway: Gateway, options: ServeHttpOptions = {}): Promise<HttpEndpoint> {
  const { connection } = gateway;
  const schemas = new ToolSchemas(async (cursor) =>
    // An upstream without tools has none to check (and its client would not ask).
    (connection.client as Client).getServerCapabilities()?.tools === undefined
      ? {}
      : connection.listTools({
          ...(cursor === undefined ? {} : { cursor }),
          timeout: listTimeoutMs,
        }),
  );
  const resources = new ResourceListens({
    subscribe: (uri, lost) => gateway.subscribeUpstream(uri, lost),
    offered: () =>
      (connection.client as Client).getServerCapabilities()?.resources?.subscribe === true,
    maxPerListen: options.maxResourcesPerListen ?? 32,
    maxOpen: options.maxResourceSubscriptions ?? 64,
    maxUriLength: options.maxResourceUriLength ?? 2048,
  });
  return serve(
    // A server of one request is a 2026-07-28 host's: its listens' resources are subscribed here.
    (serverOptions) =>
      gateway.createServer({ ...serverOptions, resourceUpdates: serverOptions.track === false }),
    options,
    { schemas, resources, hearChanges: (listener) => gateway.onUpstreamChange(listener) },
  );
}

/** Serve the servers `factory` makes over Streamable HTTP at `/mcp` (serveHttp's endpoint). */
export function serveMcpHttp(
  factory: ServerFactory,
  options: ServeHttpOptions = {},
): Promise<HttpEndpoint> {
  return serve(factory, options);
}

/** Whether a body (one message or a batch) lists tools. */
const listsTools = (body: unknown): boolean =>
  (Array.isArray(body) ? body : [body]).some(
    (message) => isRecord(message) && message['method'] === 'tools/list',
  );

/** What a gateway's endpoint adds to serving a factory's servers. */
interface GatewayParts {
  schemas: ToolSchemas;
  resources: ResourceListens;
  hearChanges: (listener: (method: string, params: Record<string, unknown>) => void) => () => void;
}

async function serve(
  factory: ServerFactory,
  options: ServeHttpOptions,
  parts?: GatewayParts,
): Promise<HttpEndpoint> {
  const { schemas, resources, hearChanges } = parts ?? {};
  const hostname = options.hostname ?? '127.0.0.1';
  const allowed = allowlists(hostname, options);
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const handler = createMcpHandler(
    (context) => {
      const server = factory({ track: false });
      return schemas === undefined ? server : schemas.serve(server, context.requestInfo);
    },
    { legacy: 'reject', maxSubscriptions: options.maxListeners ?? 256 },
  );
  const modern = toNodeHandler(handler);
  // The upstream's changes are heard from the first listen on (a 2025 upstream opens a session).
  let stopHearing: (() => void) | undefined;
  const listens = new ListenLimits({
    maxPerHost: options.maxListenersPerHost ?? 16,
    onListen: () => {
      if (hearChanges === undefined || stopHearing !== undefined) return;
      stopHearing = hearChanges((method, params) => {
        const event = toServerEvent(method, params);
        if (event !== undefined) handler.bus.publish(event);
      });
    },
  });
  const legacy = new LegacySessions(factory, {
    max: options.maxSessions ?? 64,
    idleMs: options.sessionIdleMs ?? 300_000,
    clock: options.clock ?? systemClock,
  });

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const refused = refusal(request, allowed.hosts, allowed.origins);
    if (refused !== undefined) return refuse(response, refused[0], -32000, refused[1]);
    const body = request.method === 'POST' ? await readBody(request, maxBody) : undefined;
    if (schemas !== undefined && listsTools(body)) schemas.invalidate();
    if (await isLegacyRequest(await toWebRequest(request, body ?? null), body))
      await legacy.handle(request, response, body);
    else if (listens.admit(request, response, body)) {
      const served =
        resources === undefined ? body : await resources.take(responseStream(response, body), body);
      if (served !== undefined) await modern(request, response, served);
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return void response.end();
      response.writeHead(error instanceof TooLarge ? 413 : 500).end();
    });
  });
  // A host's next POST may come seconds after its last (a person answering, a retry after a round):
  // past Node's default of 5 s idle the server closes the kept-alive socket, and a host that reuses
  // it as it closes gets ECONNRESET and loses that request (an answer, a retry).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // A 2025 host answers each pushed question with a POST of its own, so a call of many questions
  // brings as many connections at once: past Node's default queue of 511 the kernel drops them,
  // and a host whose connect retries run out loses that answer.
  await new Promise<void>((resolve) =>
    server.listen({ port: options.port ?? 0, host: hostname, backlog: ACCEPT_BACKLOG }, resolve),
  );
  const { port } = server.address() as AddressInfo;
  const host = hostname.includes(':') ? `[${hostname}]` : hostname;
  return {
    url: `http://${host}:${port}/mcp`,
    close: async () => {
      stopHearing?.();
      await handler.close();
      await legacy.close();
      await resources?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
