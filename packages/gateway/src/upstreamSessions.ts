/**
 * The gateway's upstream sessions (see the Routing part of gateway.ts's header): the connection
 * made at start, lent to the first host that needs a session of a 2025 upstream (once: never to a
 * second host), and the sessions opened for the other hosts, each closed with its host and never
 * handed on, and one spare opened ahead of a call (spareSession.ts). A 2026-07-28 upstream has one
 * connection for all.
 *
 * At most `maxSessions` at once, counting the hosts' sessions, the spare and the sessions still
 * closing: a session at the bound first takes the spare's place, then waits for a close (each is
 * bounded), and only then is refused. Closing a session waits, bounded on the gateway's clock, for
 * the answers it still owes the server (answersOwed.ts), then for an HTTP session's DELETE, then
 * for the transport's close: a server may never answer any of them. A call's own session is closed
 * after its result went out, off the result's path; a close that fails or runs past its bound
 * drops the session all the same, and is counted and logged.
 */
import { SdkHttpError, type Client } from '@modelcontextprotocol/client';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Connection, ConnectOptions } from '@waitfor/mcp-bridge';
import { connect, type StdioTarget } from '@waitfor/mcp-bridge/node';
import { isRecord } from '@waitfor/runtime';
import { AnswersOwed, type WatchedTransport } from './answersOwed';
import type { Clock } from './holds';
import { HostUpstream } from './hostUpstream';
import type { GatewayOptions } from './options';
import { SpareSession } from './spareSession';

/** How long closing a session waits for its owed answers, then its DELETE, then its transport. */
export const CLOSE_BOUND_MS = 5_000;

/** The SDK transport a connection's client speaks through (its public `transport`). */
const transportOf = (connection: Connection) =>
  (connection.client as Client).transport as unknown as WatchedTransport | undefined;

/** What a session's questions and notifications go to: the host it belongs to (none: the lent one's). */
export type SessionWiring = Pick<ConnectOptions, 'waitFor' | 'sampling' | 'roots' | 'extensions'>;

/** The first connection and the upstream sessions opened for hosts. */
/**
 * Whether `error` says the server did not know the session its request named (it restarted, or
 * forgot it): the SDK transport's own HTTP error with status 404, anywhere on the error's `cause`
 * chain (at most 8 deep). Such a request never ran on the server. Only the transport's error
 * counts: a JSON-RPC error the server sent (its `data` is the server's to fill, a `status: 404`
 * of a tool that fetched something included) says the call ran.
 */
export function isUnknownSession(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && isRecord(current); depth++) {
    if (current instanceof SdkHttpError && current.status === 404) return true;
    current = current['cause'];
  }
  return false;
}

export class UpstreamSessions {
  /** The hosts with an upstream session of their own open (besides the first connection). */
  readonly opened = new Set<HostUpstream>();
  /** Sessions being closed (each bounded in time; counted against `maxSessions` until closed). */
  readonly closing = new Set<Promise<void>>();
  /** Closes that failed or ran past their bound (the session was dropped all the same). */
  failedCloses = 0;
  /** The host the first connection is lent to (once: never to a second host). */
  lentTo: HostUpstream | undefined;
  #lent = false;
  #closed = false;
  /** What the first connection still owes a 2025 server (answered before it closes). */
  readonly #answers = new AnswersOwed();
  readonly spare: SpareSession;
  connection!: Connection;

  constructor(
    readonly options: GatewayOptions,
    readonly clock: Clock,
    /** The wiring of a session opened for `host`. */
    readonly wiring: (host: HostUpstream) => SessionWiring,
    readonly log: (line: string) => void,
  ) {
    this.spare = new SpareSession({
      clock,
      hasRoom: () => !this.#closed && this.occupied < this.#max,
      open: (host) => this.#connect(host),
      close: (host) => this.close(host),
    });
  }

  get #max(): number {
    return this.options.maxSessions ?? 64;
  }

  /** Sessions counted against `maxSessions`: the hosts' own, the spare, those still closing. */
  get occupied(): number {
    return this.opened.size + this.spare.count + this.closing.size;
  }

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

  /**
   * The owner of one call of a host without a session: the spare when one is ready (`spare`), else
   * a new owner whose session the call opens. `release` it when the call ends.
   */
  forCall(): { owner: HostUpstream; spare: boolean } {
    if (this.connection.era === 'modern') return { owner: new HostUpstream(), spare: false };
    const spare = this.spare.take();
    if (spare === undefined) return { owner: new HostUpstream(), spare: false };
    this.opened.add(spare);
    return { owner: spare, spare: true };
  }

  /**
   * The call of `host` (a `forCall` owner) ended: once its result is on its way (the next turn of
   * the event loop), its session closes and a spare opens for the next such call if there is
   * room — neither on the result's path.
   */
  release(host: HostUpstream): void {
    setImmediate(() => {
      void this.close(host);
      if (this.connection.era === 'legacy') this.spare.prepare();
    });
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
    await this.#claim(host);
    try {
      return await this.#connect(host);
    } catch (error) {
      this.opened.delete(host);
      throw error;
    }
  }

  /**
   * Count `host` among the opened once there is room: at the bound the spare gives its place, else
   * a close under way is waited for (each is bounded); with neither, the bound refuses.
   */
  async #claim(host: HostUpstream): Promise<void> {
    // No await between the last check and the add: two hosts never take one place.
    while (this.occupied >= this.#max) {
      this.spare.drop();
      if (this.closing.size === 0)
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          'The gateway has too many upstream sessions open; try again later',
        );
      await Promise.race(this.closing);
    }
    // The gateway is closing: a session opened now would never be closed.
    if (this.#closed) throw new Error('the gateway closed');
    this.opened.add(host);
  }

  /** A new upstream session whose pushes belong to `host` (closed at once if `host` went meanwhile). */
  async #connect(host: HostUpstream): Promise<Connection> {
    const connection = await connect(this.options.upstream as StdioTarget, {
      ...this.options.connect,
      era: this.connection.era,
      ...this.wiring(host),
    });
    host.own = connection;
    host.answers.watch(transportOf(connection));
    if (host.closed) await this.close(host);
    return connection;
  }

  /**
   * The host went away (or its one call ended): its calls end, its own upstream session closes
   * (never handed on). Resolves once closed; the session counts against the bound until then.
   */
  close(host: HostUpstream): Promise<void> {
    host.closed = true;
    for (const call of host.calls) call.cancel(new Error('the host went away'));
    if (this.lentTo === host) this.lentTo = undefined;
    const own = host.own;
    host.own = undefined;
    if (own !== undefined) {
      this.opened.delete(host);
      return this.#track(this.#end(host, own));
    }
    // A session still opening is closed once open (#connect), and counts until then.
    const opening = host.connection;
    if (opening === undefined) return Promise.resolve();
    return this.#track(
      opening.then(
        () => undefined,
        () => undefined,
      ),
    );
  }

  /** Keep `closed` in `closing` until it settles. */
  #track(closed: Promise<void>): Promise<void> {
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
    return closed;
  }

  /**
   * The answers the host's calls gave the server's pushes (cancel) go out first; then an HTTP
   * session is ended at the server too (DELETE), then the transport closed. Each bounded.
   */
  async #end(host: HostUpstream, own: Connection): Promise<void> {
    const transport = transportOf(own) as { terminateSession?: () => Promise<void> } | undefined;
    const failed: string[] = [];
    if (!(await this.#bounded(host.answers.settled()))) failed.push('its owed answers');
    if (!(await this.#bounded(transport?.terminateSession?.()))) failed.push('its DELETE');
    if (!(await this.#bounded(own.close()))) failed.push('its transport');
    if (failed.length === 0) return;
    this.failedCloses += 1;
    this.log(
      `an upstream session closed without ${failed.join(', ')} (failed or over ` +
        `${CLOSE_BOUND_MS} ms; ${this.failedCloses} such closes so far): dropped all the same`,
    );
  }

  /** Close every session the gateway opened, the spare, then the first connection once it owes nothing. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    this.spare.drop();
    await Promise.all([...this.opened].map((host) => this.close(host)));
    await this.spare.settled();
    await Promise.all([...this.closing]);
    await this.#bounded(this.#answers.settled());
    await this.connection.close();
  }

  /** Whether `work` fulfilled within CLOSE_BOUND_MS on the gateway's clock (no work: true). */
  async #bounded(work: Promise<unknown> | undefined): Promise<boolean> {
    let timer: unknown;
    const done = await Promise.race([
      work?.then(
        () => true,
        () => false,
      ) ?? true,
      new Promise<boolean>(
        (resolve) => (timer = this.clock.setTimeout(() => resolve(false), CLOSE_BOUND_MS)),
      ),
    ]);
    this.clock.clearTimeout(timer);
    return done;
  }
}
