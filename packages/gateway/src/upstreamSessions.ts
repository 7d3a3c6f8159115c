/**
 * The gateway's upstream sessions (see the Routing part of gateway.ts's header): the connection
 * made at start, lent to the first host that needs a session of a 2025 upstream (once: never to a
 * second host), and the sessions opened for the other hosts, at most `maxSessions` at once, each
 * closed with its host and never handed on. A 2026-07-28 upstream has one connection for all.
 *
 * Closing a session waits, bounded on the gateway's clock, for the answers it still owes the server
 * (answersOwed.ts) and then for an HTTP session's DELETE: a server may never answer either.
 */
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Connection, ConnectOptions } from '@waitfor/mcp-bridge';
import { connect, type StdioTarget } from '@waitfor/mcp-bridge/node';
import { AnswersOwed, type WatchedTransport } from './answersOwed';
import type { Clock } from './holds';
import type { HostUpstream } from './hostUpstream';
import type { GatewayOptions } from './options';

/** How long closing a session waits for its owed answers, and then for the server's DELETE. */
const CLOSE_BOUND_MS = 5_000;

/** The SDK transport a connection's client speaks through (its public `transport`). */
const transportOf = (connection: Connection) =>
  (connection.client as Client).transport as unknown as WatchedTransport | undefined;

/** What a session's questions and notifications go to: the host it belongs to (none: the lent one's). */
export type SessionWiring = Pick<ConnectOptions, 'waitFor' | 'sampling' | 'roots' | 'extensions'>;

/** The first connection and the upstream sessions opened for hosts. */
export class UpstreamSessions {
  /** The hosts with an upstream session of their own open (besides the first connection). */
  readonly opened = new Set<HostUpstream>();
  /** The host the first connection is lent to (once: never to a second host). */
  lentTo: HostUpstream | undefined;
  #lent = false;
  /** What the first connection still owes a 2025 server (answered before it closes). */
  readonly #answers = new AnswersOwed();
  connection!: Connection;

  constructor(
    readonly options: GatewayOptions,
    readonly clock: Clock,
    /** The wiring of a session opened for `host`. */
    readonly wiring: (host: HostUpstream) => SessionWiring,
  ) {}

  /** Make the first connection (its pushes belong to the host it is lent to: `wiring`). */
  async connect(wiring: SessionWiring): Promise<Connection> {
    this.connection = await connect(this.options.upstream as StdioTarget, {
      ...this.options.connect,
      era: this.options.era ?? 'auto',
      ...wiring,
    });
    // A 2025 server's pushes arrive on it while it is lent to a host (a 2026-07-28 one asks nothing).
    if (this.connection.era === 'legacy') this.#answers.watch(transportOf(this.connection));
    return this.connection;
  }

  /** The upstream session `host` talks to (a 2026-07-28 upstream: the one connection). */
  of(host: HostUpstream): Promise<Connection> {
    if (this.connection.era === 'modern') return Promise.resolve(this.connection);
    if (host.closed) return Promise.reject(new Error('the host is gone'));
    host.connection ??= this.#open(host).catch((error: unknown) => {
      host.connection = undefined;
      throw error;
    });
    return host.connection;
  }

  async #open(host: HostUpstream): Promise<Connection> {
    if (!this.#lent) {
      this.#lent = true;
      this.lentTo = host;
      return this.connection;
    }
    if (this.opened.size >= (this.options.maxSessions ?? 64))
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        'The gateway has too many upstream sessions open; try again later',
      );
    this.opened.add(host);
    try {
      const connection = await connect(this.options.upstream as StdioTarget, {
        ...this.options.connect,
        era: this.connection.era,
        ...this.wiring(host),
      });
      host.own = connection;
      host.answers.watch(transportOf(connection));
      if (host.closed) await this.close(host);
      return connection;
    } catch (error) {
      this.opened.delete(host);
      throw error;
    }
  }

  /** The host went away: its calls end, its own upstream session closes (never handed on). */
  async close(host: HostUpstream): Promise<void> {
    host.closed = true;
    for (const call of host.calls) call.cancel(new Error('the host went away'));
    if (this.lentTo === host) this.lentTo = undefined;
    const own = host.own;
    host.own = undefined;
    if (own === undefined) return;
    this.opened.delete(host);
    // The answers its calls' ends gave the server's pushes (cancel) go out first; then an HTTP
    // session is ended at the server too (DELETE). Both bounded: a server may never answer.
    await this.#bounded(host.answers.settled());
    const transport = transportOf(own) as { terminateSession?: () => Promise<void> } | undefined;
    await this.#bounded(transport?.terminateSession?.().catch(() => undefined));
    await own.close().catch(() => undefined);
  }

  /** Close every session the gateway opened, then the first connection once it owes nothing. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.opened].map((host) => this.close(host)));
    await this.#bounded(this.#answers.settled());
    await this.connection.close();
  }

  /** `work`, waited for at most CLOSE_BOUND_MS on the gateway's clock. */
  async #bounded(work: Promise<unknown> | undefined): Promise<void> {
    let timer: unknown;
    await Promise.race([
      work,
      new Promise(
        (resolve) => (timer = this.clock.setTimeout(() => resolve(undefined), CLOSE_BOUND_MS)),
      ),
    ]);
    this.clock.clearTimeout(timer);
  }
}
