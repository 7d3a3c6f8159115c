/**
 * The HTTP endpoint's 2025 (legacy-era) sessions: one transport (and host-facing server) per
 * `initialize`, at most `max` at once, each ended by its DELETE, the endpoint's close, or idleness.
 *
 * A 2025 host can go away without a DELETE (the SDKs' `client.close()` sends none): its session
 * must not hold a place (and, before a 2025 upstream, an upstream session) for good. A session is
 * idle while none of its HTTP responses is open (no request in flight, no GET stream, no SSE
 * response) and neither side owes the other an answer (no call of the host's running, no question
 * the gateway pushed to the host unanswered — a person answering inside an open call keeps it).
 * Idle for `idleMs` it is closed; when the endpoint is full a new `initialize` closes the
 * longest-idle session instead of being refused, so only `max` busy sessions refuse a host (503).
 * A closed session's id is answered 404, so its client initializes anew.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, type McpServer, type Server } from '@modelcontextprotocol/server';
import { isRecord } from '@waitfor/runtime';
import type { Clock } from './holds';

/** What one request or session is served by: a fresh MCP server (the gateway's, or a test's). */
export type ServerFactory = (options: {
  track?: boolean;
  resourceUpdates?: boolean;
}) => McpServer | Server;

/** Answer `response` with a JSON-RPC error and an HTTP status. */
export function refuse(response: ServerResponse, status: number, code: number, message: string) {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

type Side = 'host' | 'gateway';
type Message = Parameters<NodeStreamableHTTPServerTransport['send']>[0];
type SendOptions = Parameters<NodeStreamableHTTPServerTransport['send']>[1];

/** A request's key among the unanswered: who sent it and its id (`1` and `"1"` stay apart). */
const keyOf = (sender: Side, id: unknown) => `${sender}:${JSON.stringify(id)}`;

/** The session's transport, knowing which requests either side still owes an answer to. */
class WatchedTransport extends NodeStreamableHTTPServerTransport {
  readonly unanswered = new Set<string>();
  onchange: (() => void) | undefined;

  /** Note one message `sender` sent: a request opens, its response or cancellation settles it. */
  note(message: unknown, sender: Side): void {
    if (!isRecord(message)) return;
    const { id, method, params } = message;
    if (typeof method === 'string' && id !== undefined) this.unanswered.add(keyOf(sender, id));
    // A cancelled request gets no response: its sender's cancellation settles it.
    else if (method === 'notifications/cancelled' && isRecord(params))
      this.unanswered.delete(keyOf(sender, params['requestId']));
    else if (method === undefined && id !== undefined)
      this.unanswered.delete(keyOf(sender === 'host' ? 'gateway' : 'host', id));
    else return;
    this.onchange?.();
  }

  override async send(message: Message, options?: SendOptions) {
    this.note(message, 'gateway');
    try {
      await super.send(message, options);
    } catch (error) {
      // A request that never reached the host will never be answered.
      const sent: Record<string, unknown> = isRecord(message) ? message : {};
      if (typeof sent['method'] === 'string' && sent['id'] !== undefined)
        this.unanswered.delete(keyOf('gateway', sent['id']));
      this.onchange?.();
      throw error;
    }
  }
}

interface Session {
  readonly transport: WatchedTransport;
  /** HTTP responses of this session still open (requests in flight, GET and SSE streams). */
  streams: number;
  timer?: unknown;
  closed: boolean;
}

/** The endpoint's legacy-era sessions (see the file's comment). */
export class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  /** The idle sessions, longest idle first (a session that turns busy leaves, and re-enters last). */
  private readonly idle = new Set<Session>();
  /** Sessions whose `initialize` is being served (not yet in `sessions`, already counted). */
  private opening = 0;

  constructor(
    private readonly factory: ServerFactory,
    private readonly options: { max: number; idleMs: number; clock: Clock },
  ) {}

  async handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const existing = this.sessions.get(sessionId);
      if (existing === undefined) return refuse(response, 404, -32001, 'Session not found');
      this.watch(existing, response);
      return existing.transport.handleRequest(request, response, body);
    }
    if (!isInitializeRequest(body))
      return refuse(response, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (this.sessions.size + this.opening >= this.options.max && !this.reclaim())
      return refuse(response, 503, -32000, 'too many sessions');
    await this.open(request, response, body);
  }

  private async open(request: IncomingMessage, response: ServerResponse, body: unknown) {
    const session: Session = {
      transport: new WatchedTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id: string) => void this.sessions.set(id, session),
      }),
      streams: 0,
      closed: false,
    };
    const { transport } = session;
    transport.onchange = () => this.update(session);
    // Called before the server's own handler (Protocol.connect keeps it): the host's messages.
    transport.onmessage = (message) => transport.note(message, 'host');
    transport.onclose = () => this.forget(session);
    this.opening++;
    try {
      await this.factory({}).connect(transport);
      this.watch(session, response);
      await transport.handleRequest(request, response, body);
    } finally {
      this.opening--;
    }
    // An initialize the transport refused opened no session: nothing will ever reach it again.
    if (transport.sessionId === undefined) await transport.close();
  }

  /** Count `response` as one of the session's open streams until it closes. */
  private watch(session: Session, response: ServerResponse): void {
    session.streams++;
    this.update(session);
    response.once('close', () => {
      session.streams--;
      this.update(session);
    });
  }

  /** Start the idle clock of a session that has just turned idle; stop it for a busy one. */
  private update(session: Session): void {
    if (session.closed) return;
    const idle = session.streams === 0 && session.transport.unanswered.size === 0;
    if (idle === this.idle.has(session)) return;
    if (idle) {
      this.idle.add(session);
      session.timer = this.options.clock.setTimeout(
        () => this.expire(session),
        this.options.idleMs,
      );
    } else {
      this.idle.delete(session);
      this.options.clock.clearTimeout(session.timer);
    }
  }

  /** Close the longest-idle session to make room; false when every session is busy. */
  private reclaim(): boolean {
    const [longest] = this.idle;
    if (longest === undefined) return false;
    this.expire(longest);
    return true;
  }

  /** End an idle session: its id is 404 from now on, its host-facing server closes with it. */
  private expire(session: Session): void {
    this.forget(session);
    void session.transport.close().catch(() => undefined);
  }

  private forget(session: Session): void {
    if (session.closed) return;
    session.closed = true;
    this.idle.delete(session);
    this.options.clock.clearTimeout(session.timer);
    const id = session.transport.sessionId;
    if (id !== undefined && this.sessions.get(id) === session) this.sessions.delete(id);
  }

  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    for (const session of open) this.forget(session);
    await Promise.all(open.map((session) => session.transport.close().catch(() => undefined)));
  }
}
