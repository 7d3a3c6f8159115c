/**
 * A 2025-era server on the v1 SDK (`@modelcontextprotocol/sdk`), the kind that pushes its
 * questions: `createLegacyServer()` builds one `McpServer` (one per session, as a real deployment
 * does), `startLegacyHttpServer()` serves it over session-ful Streamable HTTP on 127.0.0.1, and
 * legacyServerStdio.ts over stdio.
 *
 * Tools:
 * - `ask_for {who}` pushes "A question for <who>" (inside its own call) and answers
 *   "<who>:<answer>" — so a test sees whose question reached whom and whose answer came back;
 * - `needs_url` fails with -32042 (URLElicitationRequiredError) until `consent` was called on the
 *   same session — over HTTP, or until the person visited the URL it lists (`GET /visit/<token>`
 *   on the fixture's own server, which also sends `notifications/elicitation/complete` for it out
 *   of any request, on the session's GET stream);
 * - `needs_url_always` fails with -32042 for the same elicitation whatever happened (a loop);
 * - `needs_url_bad {count}` fails with a hostile -32042: `count` elicitations listed (distinct
 *   ids), or without `count` a `data.elicitations` that is not a list;
 * - `sample` pushes sampling/createMessage, `roots` pushes roots/list (answers the result as JSON,
 *   or "error:<code>" when the client refused).
 * Resource `legacy://counter` is subscribable; `bump` changes it (notifying its subscribers).
 * `sessions` counts the sessions opened on the HTTP server; `sessionIds` and `toolCalls` say which
 * session each call came on; `deletes` makes a session's DELETE hang or fail (a server that never
 * lets a session end).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

export const NEEDS_URL = {
  mode: 'url' as const,
  elicitationId: 'consent-1',
  url: 'https://example.com/consent',
  message: 'Consent first',
};

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const refused = (error: unknown) => {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return text(`error:${code === undefined ? String(message) : String(code)}`);
};

/** The visit URLs of an HTTP fixture: `base` is its origin, `pending` its open tokens. */
export interface Visits {
  base: string;
  pending: Map<string, () => Promise<void>>;
}

/** A fresh 2025-era server (one per session); with `visits`, `needs_url` lists a URL to visit. */
export function createLegacyServer(visits?: Visits): McpServer {
  const server = new McpServer(
    { name: 'legacy-fixture', version: '1.0.0' },
    { capabilities: { resources: { subscribe: true } } },
  );
  let consented = false;
  const token = randomUUID();
  const needsUrl =
    visits === undefined
      ? NEEDS_URL
      : { ...NEEDS_URL, elicitationId: `consent-${token}`, url: `${visits.base}/visit/${token}` };
  visits?.pending.set(token, async () => {
    consented = true;
    await server.server.notification({
      method: 'notifications/elicitation/complete',
      params: { elicitationId: needsUrl.elicitationId },
    });
  });
  let counter = 0;
  const subscribed = new Set<string>();

  server.registerTool('ask_for', { inputSchema: { who: z.string() } }, async ({ who }, extra) => {
    const params = {
      mode: 'form',
      message: `A question for ${who}`,
      requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } },
    };
    const result = await extra.sendRequest(
      { method: 'elicitation/create', params } as never,
      ElicitResultSchema,
    );
    return text(
      `${who}:${result.action === 'accept' ? String(result.content?.['answer']) : result.action}`,
    );
  });

  server.registerTool('consent', {}, async () => {
    consented = true;
    return text('consented');
  });

  server.registerTool('needs_url', {}, async () => {
    if (!consented) throw new UrlElicitationRequiredError([needsUrl], 'Consent is needed');
    return text('done after consent');
  });

  server.registerTool('needs_url_always', {}, async () => {
    throw new UrlElicitationRequiredError([NEEDS_URL], 'Consent is never enough');
  });

  server.registerTool(
    'needs_url_bad',
    { inputSchema: { count: z.number().optional() } },
    async ({ count }) => {
      const elicitations =
        count === undefined
          ? 'not a list'
          : Array.from({ length: count }, (_, index) => ({
              ...NEEDS_URL,
              elicitationId: `many-${index}`,
            }));
      throw new McpError(-32042, 'Hostile consent', { elicitations });
    },
  );

  server.registerTool('sample', {}, async (extra) => {
    const params = {
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
      maxTokens: 10,
    };
    try {
      const result = await extra.sendRequest(
        { method: 'sampling/createMessage', params } as never,
        CreateMessageResultSchema,
      );
      return text(JSON.stringify({ model: result.model, content: result.content }));
    } catch (error) {
      return refused(error);
    }
  });

  server.registerTool('roots', {}, async (extra) => {
    try {
      const result = await extra.sendRequest(
        { method: 'roots/list' } as never,
        ListRootsResultSchema,
      );
      return text(JSON.stringify(result.roots));
    } catch (error) {
      return refused(error);
    }
  });

  server.registerTool('bump', {}, async () => {
    counter += 1;
    for (const uri of subscribed) await server.server.sendResourceUpdated({ uri });
    return text(`counter=${counter}`);
  });

  server.registerResource('counter', 'legacy://counter', {}, async (uri) => ({
    contents: [{ uri: uri.href, text: String(counter) }],
  }));
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  return server;
}

/** A running legacy HTTP server. */
export interface LegacyHttpServer {
  url: string;
  /** Sessions opened so far (each an `initialize`). */
  readonly sessions: number;
  /** Sessions open right now. */
  readonly open: number;
  /** The ids of the sessions opened so far, in the order they were opened. */
  readonly sessionIds: readonly string[];
  /** Whether the session `id` is open right now. */
  isOpen(id: string): boolean;
  /** Forget every session, as a restarted server would: each id is answered 404 from now on. */
  forgetSessions(): void;
  /** Every tools/call POSTed, with the session it came on. */
  readonly toolCalls: ReadonlyArray<{ sessionId: string | undefined; name: unknown }>;
  /** What a DELETE gets: the session ended (default), no answer ever, or a 500 (session kept). */
  deletes: 'answer' | 'hang' | 'fail';
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  return body === '' ? undefined : JSON.parse(body);
}

/** Serve `createLegacyServer` over session-ful Streamable HTTP on 127.0.0.1 (any free port). */
export async function startLegacyHttpServer(): Promise<LegacyHttpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const visits: Visits = { base: '', pending: new Map() };
  const sessionIds: string[] = [];
  const toolCalls: Array<{ sessionId: string | undefined; name: unknown }> = [];
  let deletes: LegacyHttpServer['deletes'] = 'answer';
  const http = createServer((request, response) => {
    void (async () => {
      const visited = /^\/visit\/([\w-]+)$/.exec(request.url ?? '');
      if (visited !== null) {
        const visit = visits.pending.get(visited[1] ?? '');
        await visit?.();
        return void response.writeHead(visit === undefined ? 404 : 200).end();
      }
      const body = request.method === 'POST' ? await readJson(request) : undefined;
      const id = request.headers['mcp-session-id'];
      const { method, params } = (body ?? {}) as { method?: unknown; params?: { name?: unknown } };
      if (method === 'tools/call')
        toolCalls.push({ sessionId: typeof id === 'string' ? id : undefined, name: params?.name });
      if (request.method === 'DELETE' && deletes === 'hang') return;
      if (request.method === 'DELETE' && deletes === 'fail')
        return void response.writeHead(500).end();
      const existing = typeof id === 'string' ? transports.get(id) : undefined;
      if (existing !== undefined) return existing.handleRequest(request, response, body);
      if (typeof id === 'string') return void response.writeHead(404).end();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (session) => {
          sessionIds.push(session);
          transports.set(session, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
      };
      await createLegacyServer(visits).connect(transport);
      return transport.handleRequest(request, response, body);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  visits.base = `http://127.0.0.1:${port}`;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get sessions() {
      return sessionIds.length;
    },
    get open() {
      return transports.size;
    },
    sessionIds,
    isOpen: (id: string) => transports.has(id),
    forgetSessions: () => transports.clear(),
    toolCalls,
    get deletes() {
      return deletes;
    },
    set deletes(value) {
      deletes = value;
    },
    close: async () => {
      await Promise.all([...transports.values()].map((each) => each.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
