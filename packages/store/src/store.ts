import { randomUUID } from 'node:crypto';
import { isRecord, reportUncaught } from '@waitfor/runtime';
import { checkName } from './bounds';
import type { CallsHandle, DurableCalls, DurableCallsOptions } from './calls/durableCalls';
import { createDurableCalls } from './calls/durableCalls';
import { callStatements } from './calls/callSql';
import type { Driver } from './drivers/driver';
import { pgliteDriver } from './drivers/pglite';
import { HostLease } from './hostLease';
import { applyMigrations } from './migrations';
import { namesOf } from './names';
import { endOfNotice } from './scopeList';
import { questionStatements } from './sql';
import type { QuestionStatements } from './sql';
import { StoreError, storeErrorOf } from './storeError';
import type { InboxHandle, InboxHost, StoreInbox, StoreInboxOptions } from './storeInbox';
import { createStoreInbox } from './storeInbox';
import { Sweeper } from './sweeper';

/** Options of createStore. */
export interface StoreOptions {
  /** Where the questions live (default: pgliteDriver() — an in-memory PGlite, gone with the process). */
  driver?: Driver | Promise<Driver>;
  /**
   * The PostgreSQL schema of this store's tables (default `public`; created when missing): two
   * stores in one database, each with its own permissions. A plain lower-case identifier.
   */
  schema?: string;
  /**
   * This host's name (default a random UUID), recorded as who asked. Unique among the hosts
   * running at one time: a host that starts under a name ends, at once, the questions its previous
   * life was waiting for in memory (nobody will read their answers).
   */
  instance?: string;
  /** How often to reload and sweep, for notices missed while a connection was down (default 30 s). */
  pollMs?: number;
  /** How long ended questions and calls stay for the audit before the sweep deletes them (default 7 days). */
  retainMs?: number;
  /**
   * This host's lease, renewed every third of it (default 30 s). Once it has run out for one more
   * lease (a grace period) — the host died — a sweep closes the questions it was waiting for in
   * memory, for everyone. A sweep closes nothing until its own host has been in touch with the
   * database for a whole lease, so an outage never makes a living host look dead.
   */
  leaseMs?: number;
  /** Keep the request and the answer's data of ended questions (default false: only who, when, outcome). */
  keepAnswerData?: boolean;
  /** The most open questions one inbox lists (default 10,000; the oldest are listed). */
  maxOpen?: number;
  /** The clock that `expiresAt` is compared with (default Date.now). */
  now?: () => number;
  /**
   * How long `submit` waits, at most, for a task's poller to take an answer to its task's server
   * (default 60 s; also never past the question's own expiry). No host may be polling the task
   * then (every one that held it died and none has taken over yet, or all stopped): the answer is
   * given back — removed, the question asked again in every inbox — and `submit` resolves false.
   */
  taskAnswerWaitMs?: number;
  /**
   * Told of failures nobody awaits (a background sweep, an `answer` sent in the background), and
   * of an inbox listener that threw (`listener_failed`, what it threw as `cause`; without
   * `onError` that one goes to the platform's reportError, or the console).
   */
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
  /**
   * Renews this host's lease, then (one host at a time) ends overdue questions, closes those of
   * hosts gone for good, deletes what is past `retainMs`; reloads every inbox and claims ready calls.
   */
  sweep(): Promise<void>;
  /**
   * Stops listening and closes what the store opened. Waits still open here resolve cancelled and
   * their questions end `cancelled` for everyone; durable calls stay in the database.
   */
  close(): Promise<void>;
}

export { maxScopeLength } from './bounds';

const day = 24 * 60 * 60 * 1000;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0))
    throw new StoreError('invalid_options', `${name} must be a number ≥ 0`);
  return value;
}

/** As `positive`, and finite: a wait it bounds must end. */
function finite(value: number | undefined, fallback: number, name: string): number {
  const checked = positive(value, fallback, name);
  if (checked === Infinity) throw new StoreError('invalid_options', `${name} must be finite`);
  return checked;
}

/** Where a NOTIFY payload of the store goes: a call's, a question's, or a whole scope's. */
function route(
  payload: string,
  inboxes: Iterable<InboxHandle>,
  calls: Iterable<CallsHandle>,
  reloadAll: () => void,
  report: (error: StoreError) => void,
): void {
  let notice: unknown;
  try {
    notice = JSON.parse(payload);
  } catch {
    notice = undefined;
  }
  const { s: scope, i: id, q: seq, e: event, c: callId, t: state } = isRecord(notice) ? notice : {};
  if (typeof callId === 'string' && (event === 'ready' || event === 'done')) {
    // A `done` of a complete call carries its stored result (`r`) when it fit NOTIFY.
    const carried =
      event === 'done' && isRecord(notice) && state === 'complete' && isRecord(notice.r)
        ? { result: notice.r }
        : undefined;
    for (const handle of calls) handle.notice(callId, event, carried);
    return;
  }
  if (typeof scope === 'string' && event === 'changed') {
    for (const inbox of inboxes) if (inbox.scope === scope) void inbox.refresh().catch(report);
    return;
  }
  if (
    typeof scope !== 'string' ||
    typeof id !== 'string' ||
    typeof seq !== 'string' ||
    (event !== 'open' && event !== 'end' && event !== 'delivered')
  )
    // Not ours or unreadable: reloading is always correct, only slower.
    return reloadAll();
  const ended = typeof state === 'string' ? state : undefined;
  const end = event === 'end' && isRecord(notice) ? endOfNotice(notice) : undefined;
  for (const inbox of inboxes) if (inbox.scope === scope) inbox.notice(event, id, seq, ended, end);
}

/** The options of createStore, checked, with their defaults. */
interface Settings {
  pollMs: number;
  retainMs: number;
  maxOpen: number;
  leaseMs: number;
  taskAnswerWaitMs: number;
  names: ReturnType<typeof namesOf>;
  instance: string;
  now: () => number;
  report: (error: StoreError) => void;
  reportListener: (error: StoreError) => void;
  keepAnswerData: boolean;
}

function settingsOf(options: StoreOptions): Settings {
  const leaseMs = positive(options.leaseMs, 30_000, 'leaseMs');
  if (leaseMs === 0) throw new StoreError('invalid_options', 'leaseMs must be a number > 0');
  return {
    pollMs: positive(options.pollMs, 30_000, 'pollMs'),
    retainMs: positive(options.retainMs, 7 * day, 'retainMs'),
    maxOpen: positive(options.maxOpen, 10_000, 'maxOpen'),
    leaseMs,
    taskAnswerWaitMs: finite(options.taskAnswerWaitMs, 60_000, 'taskAnswerWaitMs'),
    names: namesOf(options.schema),
    instance: checkName(options.instance ?? randomUUID(), 'instance'),
    now: options.now ?? Date.now,
    report: options.onError ?? (() => {}),
    reportListener: options.onError ?? reportUncaught,
    keepAnswerData: options.keepAnswerData ?? false,
  };
}

/**
 * Opens a store: connects, applies the schema migrations, ends what this instance's previous life
 * left open, listens for what other hosts do. Rejects with a StoreError (`unavailable` when the
 * database cannot be reached).
 */
export async function createStore(options: StoreOptions = {}): Promise<Store> {
  const settings = settingsOf(options);
  const store = new OpenStore(await (options.driver ?? pgliteDriver()), settings);
  await store.open();
  return store.face();
}

/** One open store: its lease, sweeper, inboxes and durable calls, and the notices that reach them. */
class OpenStore {
  private readonly sql: QuestionStatements;
  private readonly lease: HostLease;
  private readonly sweeper: Sweeper;
  private readonly inboxes = new Set<InboxHandle>();
  private readonly callHandles = new Set<CallsHandle>();
  private readonly host: InboxHost;
  private closed = false;
  private unlisten: () => Promise<void> = async () => {};
  private poll: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly driver: Driver,
    private readonly settings: Settings,
  ) {
    const { names, instance, leaseMs, now, keepAnswerData, retainMs, maxOpen, taskAnswerWaitMs } =
      settings;
    this.sql = questionStatements(names);
    this.lease = new HostLease(driver, this.sql, instance, leaseMs, () => performance.now());
    this.sweeper = new Sweeper({
      driver,
      sql: this.sql,
      calls: callStatements(names),
      names,
      lease: this.lease,
      now,
      keepAnswerData,
      retainMs,
    });
    this.host = {
      driver,
      sql: this.sql,
      instance,
      now,
      keepAnswerData,
      maxOpen,
      taskAnswerWaitMs,
      report: settings.report,
      reportListener: settings.reportListener,
      expireDue: (scope) => this.sweeper.expireDue(scope),
      forget: (inbox) => void this.inboxes.delete(inbox),
    };
  }

  private report(error: unknown): void {
    this.settings.report(storeErrorOf(error));
  }

  private async refreshAll(): Promise<void> {
    await Promise.all([...this.inboxes].map((inbox) => inbox.refresh()));
  }

  /** Migrates, takes the lease, ends the previous life's questions, listens, starts the poll. */
  async open(): Promise<void> {
    const { driver, lease, settings } = this;
    try {
      await applyMigrations(driver, settings.names);
      await lease.renew();
      // Questions this instance asked in an earlier life: nobody in this process waits for them.
      await this.sweeper.closePreviousLife(settings.instance);
      this.unlisten = await driver.listen(
        settings.names.channel,
        (payload) => this.route(payload),
        // Back after a lost connection: the lease first (others may be about to sweep), then reload.
        () =>
          void lease
            .renew()
            .then(() => this.refreshAll())
            .catch((error: unknown) => this.report(error)),
      );
    } catch (error) {
      await driver.close().catch(() => {});
      throw storeErrorOf(error);
    }
    // The slow fallback: notices carry the hot path, this only catches what a lost connection missed.
    if (settings.pollMs > 0) {
      this.poll = setInterval(
        () => void this.sweep().catch((error: unknown) => this.report(error)),
        settings.pollMs,
      );
      this.poll.unref?.();
    }
    lease.start(settings.report);
  }

  private route(payload: string): void {
    const reloadAll = (): void =>
      void this.refreshAll().catch((error: unknown) => this.report(error));
    route(payload, this.inboxes, this.callHandles, reloadAll, (error) => this.report(error));
  }

  async sweep(): Promise<void> {
    if (this.closed) throw new StoreError('closed', 'The store is closed');
    await this.sweeper.sweep();
    await this.refreshAll();
    await Promise.all([...this.callHandles].map((calls) => calls.poll()));
  }

  async inbox(scope: string, inboxOptions: StoreInboxOptions = {}): Promise<StoreInbox> {
    if (this.closed) throw new StoreError('closed', 'The store is closed');
    checkName(scope, 'A scope');
    if (inboxOptions.answeredBy !== undefined) checkName(inboxOptions.answeredBy, 'answeredBy');
    const { inbox, handle } = createStoreInbox(this.host, scope, inboxOptions);
    this.inboxes.add(handle);
    try {
      await handle.refresh();
    } catch (error) {
      await handle.close(storeErrorOf(error));
      throw storeErrorOf(error);
    }
    return inbox;
  }

  durableCalls(callsOptions: DurableCallsOptions): DurableCalls {
    if (this.closed) throw new StoreError('closed', 'The store is closed');
    const { driver, settings } = this;
    const { calls, handle } = createDurableCalls(
      {
        driver,
        instance: settings.instance,
        keepAnswerData: settings.keepAnswerData,
        report: settings.report,
        sql: this.sql,
        calls: callStatements(settings.names),
      },
      callsOptions,
    );
    this.callHandles.add(handle);
    // Calls that became ready while no host was listening are claimed now.
    void handle.poll().catch((error: unknown) => this.report(error));
    return {
      ...calls,
      close: () => {
        this.callHandles.delete(handle);
        calls.close();
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.poll);
    this.lease.stop();
    const cause = new StoreError('closed', 'The store is closed');
    await Promise.all([...this.inboxes].map((inbox) => inbox.close(cause)));
    for (const calls of [...this.callHandles]) calls.close();
    this.callHandles.clear();
    await this.unlisten().catch(() => {});
    await this.driver.close();
  }

  /** The public face: methods without `this`, so a host may pass them around on their own. */
  face(): Store {
    return {
      instance: this.settings.instance,
      inbox: (scope, inboxOptions) => this.inbox(scope, inboxOptions),
      durableCalls: (callsOptions) => this.durableCalls(callsOptions),
      sweep: () => this.sweep(),
      close: () => this.close(),
    };
  }
}
