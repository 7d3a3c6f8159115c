/**
 * A Streamable HTTP MCP server (v2 SDK, both eras on one endpoint) whose resources change on a
 * tool call: `update {uri}` changes one resource and tells whoever subscribed to it — a 2025
 * session that sent `resources/subscribe`, a 2026-07-28 client on a `subscriptions/listen` stream
 * naming it. `subscribers(uri)` counts them right now (a session until it unsubscribes, a stream
 * until it closes), so a test sees the gateway's upstream subscriptions come and go; `subscribed`
 * counts every subscription ever made. URIs starting with `updating://refused` are refused a 2025
 * subscribe. What a server may do to its subscribers at any time: `forgetSessions()` drops every
 * 2025 session (their subscriptions with them; a client's next request is 404), `endListens()`
 * cuts every listen stream that names a resource.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  NodeStreamableHTTPServerTransport,
  toNodeHandler,
  toWebRequest,
} from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

/** The running server. */
export interface UpdatingHttpServer {
  readonly url: string;
  /** Sessions and listen streams subscribed to `uri` right now. */
  subscribers(uri: string): number;
  /** Subscriptions made so far, every URI, both eras. */
  readonly subscribed: number;
  /** Forget every 2025 session (as a restarted server does). */
  forgetSessions(): Promise<void>;
  /** Cut every listen stream naming a resource. */
  endListens(): void;
  close(): Promise<void>;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** The URIs a listen request's filter names (none: not a listen, or no resourceSubscriptions). */
function listenUris(body: unknown): string[] {
  const message = body as { method?: unknown; params?: { notifications?: unknown } } | undefined;
  if (message?.method !== 'subscriptions/listen') return [];
  const filter = message.params?.notifications as { resourceSubscriptions?: unknown } | undefined;
  const uris = filter?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}

/** Start the server on 127.0.0.1 (any free port). */
export async function startUpdatingHttpServer(): Promise<UpdatingHttpServer> {
  const counts = new Map<string, number>();
  let subscribed = 0;
  const add = (uri: string, by: number) => {
    if (by > 0) subscribed += by;
    counts.set(uri, (counts.get(uri) ?? 0) + by);
  };
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  /** Each 2025 session's subscribed URIs, by its server. */
  const legacy = new Map<McpServer, Set<string>>();
  const update = async (uri: string) => {
    for (const [server, uris] of legacy)
      if (uris.has(uri)) await server.server.sendResourceUpdated({ uri });
    handler.notify.resourceUpdated(uri);
    return text(`updated ${uri}`);
  };
  const build = (uris?: Set<string>) => {
    const server = new McpServer(
      { name: 'updating-http', version: '1.0.0' },
      { capabilities: { resources: { subscribe: true } } },
    );
    server.registerTool('update', { inputSchema: { uri: z.string() } }, ({ uri }) => update(uri));
    for (const name of ['a', 'b'])
      server.registerResource(name, `updating://${name}`, {}, (uri) => ({
        contents: [{ uri: uri.href, text: name }],
      }));
    if (uris === undefined) return server;
    server.server.setRequestHandler('resources/subscribe', ({ params }) => {
      if (params.uri.startsWith('updating://refused')) throw new Error('Not subscribable');
      if (!uris.has(params.uri)) add(params.uri, 1);
      uris.add(params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', ({ params }) => {
      if (uris.delete(params.uri)) add(params.uri, -1);
      return {};
    });
    return server;
  };
  const handler = createMcpHandler(() => build(), { legacy: 'reject' });
  const modern = toNodeHandler(handler);
  /** A listen stream counts for its URIs until its response closes. */
  const listens = new Set<ServerResponse>();
  const countListen = (response: ServerResponse, body: unknown) => {
    const uris = [...new Set(listenUris(body))];
    for (const uri of uris) add(uri, 1);
    if (uris.length > 0) listens.add(response);
    response.once('close', () => {
      listens.delete(response);
      uris.forEach((uri) => add(uri, -1));
    });
  };

  const http = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body =
        chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString()) as unknown);
      if (!(await isLegacyRequest(await toWebRequest(request, body ?? null), body))) {
        countListen(response, body);
        return modern(request, response, body);
      }
      const id = request.headers['mcp-session-id'];
      const existing = typeof id === 'string' ? sessions.get(id) : undefined;
      if (existing !== undefined) return existing.handleRequest(request, response, body);
      const transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId: string) => void sessions.set(sessionId, transport),
      });
      const uris = new Set<string>();
      const server = build(uris);
      legacy.set(server, uris);
      transport.onclose = () => {
        legacy.delete(server);
        for (const uri of uris) add(uri, -1);
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
    })().catch(() => response.headersSent || response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    subscribers: (uri) => counts.get(uri) ?? 0,
    get subscribed() {
      return subscribed;
    },
    forgetSessions: async () => {
      const transports = [...sessions.values()];
      sessions.clear();
      await Promise.all(transports.map((transport) => transport.close()));
    },
    endListens: () => {
      for (const response of listens) response.destroy();
    },
    close: async () => {
      await handler.close();
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
