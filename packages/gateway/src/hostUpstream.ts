/** One host's share of a 2025 upstream: see the Routing part of gateway.ts's header. */
import type { LoggingLevel, Server } from '@modelcontextprotocol/server';
import type { Connection } from '@waitfor/mcp-bridge';
import { AnswersOwed } from './answersOwed';
import type { GatewayCall } from './call';
import { Completions } from './urlRequired';

/**
 * One host's share of a legacy upstream: its upstream session (opened on first use), the calls
 * running on it (the only candidates of a question pushed on it) and the host-facing server its
 * notifications go to (none for a 2026-07-28 host over HTTP).
 */
export class HostUpstream {
  readonly calls = new Set<GatewayCall>();
  /** The URL completions its upstream session sends (what a -32042 retry waits for). */
  readonly completions = new Completions();
  /** What its own upstream session still owes the server (answered before the session closes). */
  readonly answers = new AnswersOwed();
  connection: Promise<Connection> | undefined;
  /** The session this host opened itself (closed with the host; the lent one is not). */
  own: Connection | undefined;
  closed = false;
  /** The level the host set with logging/setLevel (a 2025 host; none: it asked for no lines). */
  logLevel: LoggingLevel | undefined;

  /** `forward`: where its notifications go besides its server (the 2026-07-28 hosts' listen streams). */
  constructor(
    readonly server?: Server,
    private readonly forward?: (method: string, params: Record<string, unknown>) => void,
  ) {}

  notify(method: string, params: Record<string, unknown>): void {
    this.server?.notification({ method, params } as never).catch(() => undefined);
    this.forward?.(method, params);
  }
}
