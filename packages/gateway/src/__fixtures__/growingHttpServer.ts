/**
 * A Streamable HTTP MCP server (v2 SDK, both eras on one endpoint) whose tool list is shared by
 * every client: `grow` adds a tool, and every client hears the list changed — a 2025 session as
 * the SDK's unsolicited notification, a 2026-07-28 client on its `subscriptions/listen` stream.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, McpServer } from '@modelcontextprotocol/server';
import { toWebRequest } from '@modelcontextprotocol/node';

/** The running server. */
export interface GrowingHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** Start the server on 127.0.0.1 (any free port). */
export async function startGrowingHttpServer(): Promise<GrowingHttpServer> {
  let grown = 0;
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const legacyServers = new Set<McpServer>();
  const register = (server: McpServer, index: number) =>
    server.registerTool(`grown_${index}`, { description: 'Grown' }, async () => text('grown'));
  const grow = () => {
    grown += 1;
    // registerTool on a connected 2025 server sends its session the list_changed itself.
    for (const server of legacyServers) register(server, grown);
    handler.notify.toolsChanged();
    return text(`grown_${grown}`);
  };
  const build = () => {
    const server = new McpServer(
      { name: 'growing-http', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.registerTool('grow', { description: 'Adds a tool' }, async () => grow());
    for (let index = 1; index <= grown; index += 1) register(server, index);
    return server;
  };
  const handler = createMcpHandler(build, { legacy: 'reject' });
  const modern = toNodeHandler(handler);

  const http = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body =
        chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString()) as unknown);
      if (!(await isLegacyRequest(await toWebRequest(request, body ?? null), body)))
        return modern(request, response, body);
      const id = request.headers['mcp-session-id'];
      const existing = typeof id === 'string' ? sessions.get(id) : undefined;
      if (existing !== undefined) return existing.handleRequest(request, response, body);
      const transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId: string) => void sessions.set(sessionId, transport),
      });
      const server = build();
      legacyServers.add(server);
      transport.onclose = () => {
        legacyServers.delete(server);
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
    close: async () => {
      await handler.close();
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
