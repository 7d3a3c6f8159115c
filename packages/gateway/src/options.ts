/** The options of createGateway and the running gateway it returns. */
import type { Server } from '@modelcontextprotocol/server';
import type { Connection, ConnectOptions } from '@waitfor/mcp-bridge';
import type { StdioTarget } from '@waitfor/mcp-bridge/node';
import type { Clock } from './holds';
import type { CannotAsk } from './hostSide';

/** The upstream: a command to spawn (stdio) or a Streamable HTTP endpoint (with its auth). */
export type Upstream = StdioTarget | ({ url: string } & Record<string, unknown>);

/** Options of createGateway. */
export interface GatewayOptions {
  upstream: Upstream;
  /** The upstream's era: negotiate (default) or pin one. */
  era?: 'auto' | 'legacy' | 'modern';
  /** How long a question waits for the host (a held call for its retry, a push for its answer); default 10 minutes. */
  holdMs?: number;
  /** Calls held for a modern host's retry at once (default 64); past it a call fails at once. */
  maxHeld?: number;
  /** Open questions of one call (default 16); past it a question is cancelled upstream (one log line per call). */
  maxQuestions?: number;
  /** The upstream call's own time budget (bridge `timeout`; default 10 minutes). */
  callTimeoutMs?: number;
  /** Where the gateway says what it did (default: standard error). */
  log?: (line: string) => void;
  /** Timers (tests inject a fake clock). */
  clock?: Clock;
  /** The requestState HMAC key (default: 32 random bytes per gateway). */
  key?: Uint8Array;
  /** A question the host cannot be asked (default: declined upstream); createPage's asks the person. */
  cannotAsk?: CannotAsk;
  /**
   * Upstream sessions open at once besides the first (a legacy upstream: one per host, or per call
   * of a 2026-07-28 host over HTTP; default 64); past it the host's request is refused.
   */
  maxSessions?: number;
  /**
   * How long a 2025 server's URL completion is waited for after the person's consent to a -32042
   * the gateway asked for (ms, default 60000); the call is retried then anyway.
   */
  completionMs?: number;
  /** Passed to the bridge's connect (reconnect, limits, name, version). */
  connect?: Omit<ConnectOptions, 'waitFor' | 'era' | 'extensions'>;
}

/** A running gateway. */
export interface Gateway {
  /** The upstream connection (era, server name, state). */
  readonly connection: Connection;
  /**
   * A fresh host-facing server (one per host connection; both eras). `track: false` for a server
   * of one request (modern-era HTTP): it gets no upstream notifications. `resourceUpdates`: the
   * caller delivers its listens' `resourceSubscriptions` (serveHttp does), so it announces
   * `resources.subscribe` where the upstream offers it.
   */
  createServer(options?: { track?: boolean; resourceUpdates?: boolean }): Server;
  /**
   * Hear the upstream's list changes and resource updates meant for hosts without a connection of
   * their own (2026-07-28 over HTTP; serveHttp publishes them to their listen streams). Returns
   * the unsubscribe.
   */
  onUpstreamChange(listener: (method: string, params: Record<string, unknown>) => void): () => void;
  /**
   * Subscribe upstream for one resource's updates, heard by onUpstreamChange listeners
   * (`resources/subscribe` on the session they come on from a 2025 server, a listen stream of that
   * URI on a 2026-07-28 one) — or, given a host-facing `server` of this gateway, by that server
   * (a 2025 server's on that host's own upstream session). Resolves to the unsubscribe; rejects
   * when the upstream refused. `lost` is called when the upstream ends the subscription itself
   * (its session replaced by a reconnect, its listen stream ended).
   */
  subscribeUpstream(uri: string, lost?: () => void, server?: Server): Promise<() => Promise<void>>;
  /** Calls held for a modern host's retry right now. */
  readonly held: number;
  /** Upstream calls in flight right now. */
  readonly open: number;
  close(): Promise<void>;
}
