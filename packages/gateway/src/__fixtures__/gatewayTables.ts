/**
 * The sizes of a running gateway's tables, for suites that check nothing is left behind once the
 * calls (and their hosts) are gone. Besides the public `open` and `held` it reads the gateway's
 * internal sets by name (createGateway's GatewayImpl, its UpstreamSessions): a rename there fails
 * these suites loudly (a missing table reads as an error, never as zero).
 */
import type { Gateway } from '../index';

/** What one gateway holds right now. */
export interface GatewayTables {
  /** Upstream calls in flight. */
  open: number;
  /** Calls held for a modern host's retry. */
  held: number;
  /** Host-facing servers of hosts with a session (stdio, a 2025 host over HTTP). */
  hostServers: number;
  /** Upstream sessions the gateway opened besides its first connection. */
  upstreamSessions: number;
  /** Calls on the shared session of sessionless hosts' non-call requests (none ever run there). */
  statelessCalls: number;
  /** Upstream sessions being closed (a call's own closes after its result went out). */
  closingSessions: number;
  /** The spare upstream session kept open for the next sessionless call (0 or 1; spareSession.ts). */
  spareSessions: number;
}

interface Internals {
  servers: Set<unknown>;
  sessions: { opened: Set<unknown>; closing: Set<unknown>; spare: { count: number } };
  stateless: { calls: Set<unknown> };
}

const sizeOf = (table: unknown, name: string): number => {
  if (!(table instanceof Set)) throw new Error(`the gateway has no table "${name}" any more`);
  return table.size;
};

const countOf = (count: unknown, name: string): number => {
  if (typeof count !== 'number') throw new Error(`the gateway has no count "${name}" any more`);
  return count;
};

/** The sizes of `gateway`'s tables. */
export function gatewayTables(gateway: Gateway): GatewayTables {
  const internals = gateway as unknown as Partial<Internals>;
  return {
    open: gateway.open,
    held: gateway.held,
    hostServers: sizeOf(internals.servers, 'servers'),
    upstreamSessions: sizeOf(internals.sessions?.opened, 'sessions.opened'),
    statelessCalls: sizeOf(internals.stateless?.calls, 'stateless.calls'),
    closingSessions: sizeOf(internals.sessions?.closing, 'sessions.closing'),
    spareSessions: countOf(internals.sessions?.spare?.count, 'sessions.spare.count'),
  };
}
