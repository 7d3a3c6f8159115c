import { randomUUID } from 'node:crypto';
import { isRecord } from '@waitfor/runtime';
import type { Driver } from './drivers/driver';
import { pgliteDriver } from './drivers/pglite';
import { migrate } from './migrations';
import * as sql from './sql';
import { StoreError, storeErrorOf } from './storeError';
import type { InboxHandle, InboxHost, StoreInbox, StoreInboxOptions } from './storeInbox';
import { createStoreInbox } from './storeInbox';
import type { CallsHandle, DurableCalls, DurableCallsOptions } from './calls/durableCalls';
import { createDurableCalls } from './calls/durableCalls';

/** Options of createStore. */
export interface StoreOptions {
  /** Where the questions live (default: pgliteDriver() — an in-memory PGlite, gone with the process). */
  driver?: Driver | Promise<Driver>;
  /** This host's name in the audit columns (default a random UUID). */
  instance?: string;
  /** How often to reload and sweep, for notices missed while a connection was down (default 30 s). */
  pollMs?: number;
  /** How long ended questions stay for the audit before the sweep deletes them (default 7 days). */
  retainMs?: number;
  /**
   * This host's lease, renewed every third of it (default 30 s). Once it runs out — the host died —
   * any host's sweep closes the questions it was waiting for, for everyone. A host that starts
   * again under the same `instance` within it keeps them.
   */
  leaseMs?: number;
  /** Keep the request and the answer's data of ended questions (default false: only who, when, outcome). */
  keepAnswerData?: boolean;
  /** The most open questions one inbox lists (default 10,000; the oldest are listed). */
  maxOpen?: number;
  /** The clock that `expiresAt` is compared with (default Date.now). */
  now?: () => number;
  /** Told of failures nobody awaits (a background sweep, an `answer` sent in the background). */
  onError?: (error: StoreError) => void;
}

/** The questions of every scope, in one database shared by a fleet of hosts. */
export interface Store {
  /** This host's name, recorded as who asked. */
  readonly instance: string;
  /** The inbox of one scope (a tenant or user key the host chooses), its open questions loaded. */
  inbox(scope: string, options?: StoreInboxOptions): Promise<StoreInbox>;
  /**
   * Durable modern-era calls on this host (needs `@waitfor/mcp-bridge`): saved while their
   * questions are open, resumed by whichever host claims them once answered.
   */
  durableCalls(options: DurableCallsOptions): DurableCalls;
  /** Ends overdue questions, deletes ended ones past `retainMs`, reloads every inbox. */
  sweep(): Promise<void>;
  /** Stops listening and closes what the store opened; open questions stay in the database. */
  close(): Promise<void>;
}

/** The longest scope the store accepts: a NOTIFY payload holds a scope and an id. */
export const maxScopeLength = 256;

const day = 24 * 60 * 60 * 1000;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0))
    throw new StoreError('invalid_options', `${name} must be a number ≥ 0`);
  return value;
}

/**
 * Opens a store: connects, applies the schema migrations, listens for what other hosts do.
 * Rejects with a StoreError (`unavailable` when the database cannot be reached).
 */
export async function createStore(options: StoreOptions = {}): Promise<Store> {
  const pollMs = positive(options.pollMs, 30_000, 'pollMs');
  const retainMs = positive(options.retainMs, 7 * day, 'retainMs');
  const maxOpen = positive(options.maxOpen, 10_000, 'maxOpen');
  const leaseMs = positive(options.leaseMs, 30_000, 'leaseMs');
  if (leaseMs === 0) throw new StoreError('invalid_options', 'leaseMs must be a number > 0');
  const instance = options.instance ?? randomUUID();
  const now = options.now ?? Date.now;
  const report = options.onError ?? (() => {});
  const driver = await (options.driver ?? pgliteDriver());
  const inboxes = new Set<InboxHandle>();
  const callHandles = new Set<CallsHandle>();
  let closed = false;

  try {
    await migrate(driver);
    // The lease first: questions this host asked in an earlier life (same instance) stay its own.
    await driver.query(sql.renewInstance, [instance, leaseMs]);
  } catch (error) {
    await driver.close().catch(() => {});
    throw storeErrorOf(error);
  }

  const expireDue = async (scope: string | null): Promise<void> => {
    // Many hosts may run this at once: the UPDATE … WHERE state = 'open' ends each row once.
    await driver.query(sql.expireDue, [
      new Date(now()).toISOString(),
      scope,
      options.keepAnswerData ?? false,
    ]);
  };

  const refreshAll = async (): Promise<void> => {
    await Promise.all([...inboxes].map((inbox) => inbox.refresh()));
  };

  const onMessage = (payload: string): void => {
    let notice: unknown;
    try {
      notice = JSON.parse(payload);
    } catch {
      notice = undefined;
    }
    const { s: scope, i: id, q: seq, e: event, c: callId } = isRecord(notice) ? notice : {};
    if (typeof callId === 'string' && (event === 'ready' || event === 'done')) {
      for (const calls of callHandles) calls.notice(callId, event);
      return;
    }
    if (
      typeof scope !== 'string' ||
      typeof id !== 'string' ||
      typeof seq !== 'string' ||
      (event !== 'open' && event !== 'end')
    ) {
      // Not ours or unreadable: reloading is always correct, only slower.
      void refreshAll().catch((error: unknown) => report(storeErrorOf(error)));
      return;
    }
    for (const inbox of inboxes) if (inbox.scope === scope) inbox.notice(event, id, seq);
  };

  let unlisten: () => Promise<void>;
  try {
    unlisten = await driver.listen(sql.channel, onMessage, () => {
      void refreshAll().catch((error: unknown) => report(storeErrorOf(error)));
    });
  } catch (error) {
    await driver.close().catch(() => {});
    throw storeErrorOf(error);
  }

  const closeOrphans = async (): Promise<void> => {
    await driver.query(sql.closeOrphans, [options.keepAnswerData ?? false]);
  };

  const sweep = async (): Promise<void> => {
    if (closed) throw new StoreError('closed', 'The store is closed');
    await expireDue(null);
    await closeOrphans();
    await driver.query(sql.deleteDeadInstances, [retainMs]);
    await driver.query(sql.deleteEnded, [retainMs]);
    await refreshAll();
    await Promise.all([...callHandles].map((calls) => calls.poll()));
  };

  // The slow fallback: notices carry the hot path, this only catches what a lost connection missed.
  const poll =
    pollMs > 0
      ? setInterval(
          () => void sweep().catch((error: unknown) => report(storeErrorOf(error))),
          pollMs,
        )
      : undefined;
  poll?.unref?.();
  const heartbeat = setInterval(() => {
    driver
      .query(sql.renewInstance, [instance, leaseMs])
      .catch((error: unknown) => report(storeErrorOf(error)));
  }, leaseMs / 3);
  heartbeat.unref?.();

  const host: InboxHost = {
    driver,
    instance,
    now,
    keepAnswerData: options.keepAnswerData ?? false,
    maxOpen,
    report,
    expireDue,
    forget: (inbox) => void inboxes.delete(inbox),
  };

  return {
    instance: host.instance,
    async inbox(scope, inboxOptions = {}) {
      if (closed) throw new StoreError('closed', 'The store is closed');
      if (typeof scope !== 'string' || scope === '' || scope.length > maxScopeLength)
        throw new StoreError(
          'invalid_options',
          `A scope is a string of 1 to ${maxScopeLength} characters`,
        );
      const { inbox, handle } = createStoreInbox(host, scope, inboxOptions);
      inboxes.add(handle);
      try {
        await handle.refresh();
      } catch (error) {
        handle.close(storeErrorOf(error));
        throw storeErrorOf(error);
      }
      return inbox;
    },
    durableCalls(callsOptions) {
      if (closed) throw new StoreError('closed', 'The store is closed');
      const { calls, handle } = createDurableCalls(host, callsOptions);
      callHandles.add(handle);
      // Calls that became ready while no host was listening are claimed now.
      void handle.poll().catch((error: unknown) => report(storeErrorOf(error)));
      return {
        ...calls,
        close() {
          callHandles.delete(handle);
          calls.close();
        },
      };
    },
    sweep,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(poll);
      clearInterval(heartbeat);
      const cause = new StoreError('closed', 'The store is closed');
      for (const inbox of [...inboxes]) inbox.close(cause);
      for (const calls of [...callHandles]) calls.close();
      callHandles.clear();
      await unlisten().catch(() => {});
      await driver.close();
    },
  };
}
