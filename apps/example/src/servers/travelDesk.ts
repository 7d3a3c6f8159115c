import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { handleCors } from '../host/cors.js';
import { closeServer, listen } from '../host/listen.js';
import { createTravelDesk } from './travelDeskTools.js';
import type { SignInDesk } from './signInDesk.js';

/** A running server: its MCP endpoint and how to stop it. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  baseUrl: string;
  /** The MCP endpoint (`${baseUrl}/mcp`). */
  mcpUrl: string;
  close(): Promise<void>;
}

const maxBodyBytes = 1_000_000;

async function readJson(request: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    // A local server still refuses unbounded bodies instead of buffering them.
    if (body.length > maxBodyBytes) throw new Error('Request body too large');
  }
  return body === '' ? undefined : JSON.parse(body);
}

const jsonRpcError = (response: ServerResponse, status: number, message: string) =>
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));

/**
 * Starts the legacy-era Travel Desk on 127.0.0.1: Streamable HTTP with sessions (so it can push
 * `elicitation/create` and completion notifications to the client that asked), CORS for the
 * example page, and the sign-in page its URL-mode questions point to.
 */
export async function startTravelDesk(options: {
  port?: number;
  signIns: SignInDesk;
}): Promise<RunningServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let baseUrl = '';

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (handleCors(request, response)) return;
    if (options.signIns.handle(request, response)) return;
    const url = new URL(request.url ?? '/', 'http://local');
    if (url.pathname !== '/mcp') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const sessionId = request.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (known !== undefined) {
      await known.handleRequest(
        request,
        response,
        request.method === 'POST' ? await readJson(request) : undefined,
      );
      return;
    }
    if (typeof sessionId === 'string') {
      jsonRpcError(response, 404, 'Session not found');
      return;
    }
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    if (!isInitializeRequest(body)) {
      jsonRpcError(response, 400, 'Bad Request: no valid session ID provided');
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    const server = createTravelDesk({ signIns: options.signIns, baseUrl: () => baseUrl });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        jsonRpcError(response, 400, error instanceof Error ? error.message : 'Bad request');
      else response.end();
    });
  });
  baseUrl = await listen(http, options.port ?? 0);
  return {
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    async close() {
      await Promise.all(
        [...transports.values()].map((transport) => transport.close().catch(() => undefined)),
      );
      transports.clear();
      await closeServer(http);
    },
  };
}
