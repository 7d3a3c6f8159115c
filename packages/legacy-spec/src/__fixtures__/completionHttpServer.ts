/**
 * The completion fixtures over legacy-era Streamable HTTP on 127.0.0.1:0, session-ful (pushed
 * requests and out-of-request notifications need a session): `sdk: 'v2'` serves
 * createCompletionServerV2 through `@modelcontextprotocol/node`'s NodeStreamableHTTPServerTransport,
 * `sdk: 'v1'` serves createCompletionServerV1 through `@modelcontextprotocol/sdk`'s
 * StreamableHTTPServerTransport. Each session gets its own server instance and CompletionState.
 *
 * Besides the tools (whose `complete` sends the notification on the tool call's own response
 * stream), a session can send `notifications/elicitation/complete` OUT of any request — the way a
 * server reports that the person finished in the browser — which the transport writes to the
 * client's standalone GET stream. `standaloneStreamOpen()` says when that stream is up (before,
 * the transport drops such a notification).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createCompletionServerV1 } from './completionServerV1';
import { createCompletionServerV2 } from './completionServerV2';
import { createCompletionState, type CompletionState } from './completionState';

/** Which server SDK generation serves the sessions. */
export type ServerSdk = 'v1' | 'v2';

/** What both SDKs' session-ful Node transports offer. */
interface NodeTransport {
  readonly sessionId?: string | undefined;
  onclose?: (() => void) | undefined;
  handleRequest(request: IncomingMessage, response: ServerResponse, body?: unknown): Promise<void>;
  close(): Promise<void>;
}

/** One session of the fixture. */
export interface CompletionSession {
  readonly state: CompletionState;
  /** True once the client's standalone GET stream is open. */
  standaloneStreamOpen(): boolean;
  /** Record `elicitationId` as completed and send its completion out of any request. */
  completeOutOfRequest(elicitationId: string): Promise<void>;
  /** Send a completion out of any request without recording anything (unknown or repeated ids). */
  notifyOutOfRequest(elicitationId: string): Promise<void>;
}

/** A running fixture. */
export interface CompletionHttpServer {
  url: string;
  /** Sessions in the order they were initialized. */
  sessions: CompletionSession[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

/** Start the `sdk` completion fixture over Streamable HTTP on 127.0.0.1 with an ephemeral port. */
export async function startCompletionHttpServer(sdk: ServerSdk): Promise<CompletionHttpServer> {
  const transports = new Map<string, NodeTransport>();
  const sessions: CompletionSession[] = [];
  /** Standalone GET responses per session id. */
  const streams = new Map<string, ServerResponse[]>();

  const startSession = async (): Promise<NodeTransport> => {
    const state = createCompletionState();
    const options = {
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id: string) => {
        transports.set(id, transport);
        streams.set(id, []);
        sessions.push(session(id));
      },
    };
    // Both servers expose the SDK's low-level server as `.server`, with the same notifier.
    let notifier: (elicitationId: string) => () => Promise<void>;
    let transport: NodeTransport;
    if (sdk === 'v2') {
      const server = createCompletionServerV2('legacy', state);
      transport = new NodeStreamableHTTPServerTransport(options);
      notifier = (id) => server.server.createElicitationCompletionNotifier(id);
      await server.connect(transport as NodeStreamableHTTPServerTransport);
    } else {
      const server = createCompletionServerV1(state);
      transport = new StreamableHTTPServerTransport(options);
      notifier = (id) => server.server.createElicitationCompletionNotifier(id);
      await server.connect(transport as StreamableHTTPServerTransport);
    }
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    const session = (id: string): CompletionSession => ({
      state,
      // The transport registers the stream before it writes the response's headers.
      standaloneStreamOpen: () =>
        (streams.get(id) ?? []).some((response) => response.headersSent && !response.writableEnded),
      completeOutOfRequest: (elicitationId) => {
        state.completed.add(elicitationId);
        return notifier(elicitationId)();
      },
      notifyOutOfRequest: (elicitationId) => notifier(elicitationId)(),
    });
    return transport;
  };

  const server = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      const sessionId = request.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      if (existing && typeof sessionId === 'string' && request.method === 'GET') {
        streams.get(sessionId)?.push(response);
      }
      const transport = existing ?? (await startSession());
      await transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessions,
    close: async () => {
      await Promise.allSettled([...transports.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
