/**
 * The bench server (benchServer.ts: `plain`, `confirm`, `fan_out_<k>`), or another, over Streamable HTTP on
 * 127.0.0.1, both eras on one endpoint as a real dual-era deployment serves them: 2026-07-28
 * requests go to the SDK's stateless `createMcpHandler`, 2025 ones to a session-ful transport per
 * `initialize` (a pushed `elicitation/create` needs the session its answer comes back on).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, type McpServer } from '@modelcontextprotocol/server';
import { createBenchServer } from './benchServer';

/** A running bench server over HTTP. */
export interface BenchHttpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** The Web Request `isLegacyRequest` reads (headers and body). */
function webRequestOf(request: IncomingMessage, body: unknown): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return new Request(`http://127.0.0.1${request.url ?? '/'}`, {
    method: request.method ?? 'GET',
    headers,
    ...(request.method === 'POST' && body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

/** Serve the bench server (or the servers `create` makes) on 127.0.0.1, any free port. */
export async function startBenchHttpServer(
  create: () => McpServer = createBenchServer,
): Promise<BenchHttpServer> {
  const modern = toNodeHandler(createMcpHandler(create, { legacy: 'reject' }));
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      if (!(await isLegacyRequest(webRequestOf(request, body), body)))
        return modern(request, response, body);
      const id = request.headers['mcp-session-id'];
      const session = typeof id === 'string' ? sessions.get(id) : undefined;
      if (session !== undefined) return session.handleRequest(request, response, body);
      const transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (opened: string) => void sessions.set(opened, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await create().connect(transport);
      return transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((each) => each.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
