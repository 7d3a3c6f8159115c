/**
 * The one spare upstream session of a 2025 upstream: opened (initialize done) ahead of the next
 * call of a host without a session (a 2026-07-28 host over HTTP), whose every call needs an
 * upstream session of its own (see the Routing part of gateway.ts's header), so that call does not
 * wait for a handshake.
 *
 * Invariants: at most one spare, counted against `maxSessions` from the moment it starts opening
 * (upstreamSessions.ts); it is handed to a call only once open and still connected (one whose
 * upstream died is closed instead, and the call opens its own); it belongs to nobody until taken
 * (a push arriving on it has no call and is cancelled); once taken it is that call's alone and
 * closes with it; it closes after `SPARE_IDLE_MS` untaken, and with the gateway. A new one opens
 * once such a call has ended and its result is on its way (never while the call runs: the
 * handshake would compete with it).
 */
import type { Connection } from '@waitfor/mcp-bridge';
import type { Clock } from './holds';
import { HostUpstream } from './hostUpstream';

/** How long a spare waits for a call before it is closed (ms, on the gateway's clock). */
export const SPARE_IDLE_MS = 60_000;

/** What a spare needs of the gateway's upstream sessions. */
export interface SpareParts {
  clock: Clock;
  /** Whether one more session fits under `maxSessions` (and the gateway is not closing). */
  hasRoom(): boolean;
  /** Open an upstream session for `host` (sets its `own`; closes it if `host` closed meanwhile). */
  open(host: HostUpstream): Promise<Connection>;
  /** Close `host`'s session (counted until it is closed). */
  close(host: HostUpstream): Promise<void>;
}

export class SpareSession {
  #host: HostUpstream | undefined;
  #connection: Connection | undefined;
  #timer: unknown;
  #unwatch: (() => void) | undefined;
  /** The spare being opened, if one is (awaited by the gateway's close). */
  #opening: Promise<unknown> | undefined;

  constructor(private readonly parts: SpareParts) {}

  /** The spare's connection once it is open (none while it opens, or without a spare). */
  get connection(): Connection | undefined {
    return this.#connection;
  }

  /** Sessions the spare holds right now (0 or 1, counted against `maxSessions`). */
  get count(): number {
    return this.#host === undefined ? 0 : 1;
  }

  /** Open a spare, unless there is one or no room for it. */
  prepare(): void {
    if (this.#host !== undefined || !this.parts.hasRoom()) return;
    const host = new HostUpstream();
    this.#host = host;
    this.#timer = this.parts.clock.setTimeout(() => this.drop(), SPARE_IDLE_MS);
    const opening = this.parts.open(host);
    host.connection = opening;
    this.#opening = opening.then(
      (connection) => this.#opened(host, connection),
      () => {
        host.connection = undefined;
        if (this.#host === host) this.#forget();
      },
    );
  }

  /** The open, connected spare for a call (it is the call's from now on), else none. */
  take(): HostUpstream | undefined {
    const host = this.#host;
    if (host === undefined || this.#connection === undefined) return undefined;
    if (this.#connection.state.getSnapshot().status !== 'connected') {
      this.drop();
      return undefined;
    }
    this.#forget();
    return host;
  }

  /** Close the spare (idle, dead, room needed, or the gateway closing); false when there is none. */
  drop(): boolean {
    const host = this.#host;
    if (host === undefined) return false;
    this.#forget();
    void this.parts.close(host);
    return true;
  }

  /** Resolves once no spare is being opened. */
  async settled(): Promise<void> {
    await this.#opening;
  }

  #opened(host: HostUpstream, connection: Connection): void {
    if (this.#host !== host) return;
    this.#connection = connection;
    // An upstream that dies (a stdio child gone, a session lost) closes its spare at once.
    this.#unwatch = connection.state.subscribe(() => {
      if (this.#host === host && connection.state.getSnapshot().status !== 'connected') this.drop();
    });
  }

  #forget(): void {
    this.parts.clock.clearTimeout(this.#timer);
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#host = undefined;
    this.#connection = undefined;
  }
}
