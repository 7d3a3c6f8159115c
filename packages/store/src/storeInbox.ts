import type { Answer, Inbox, Request, WaitFor } from '@waitfor/core';
import { cancel, expire, parseAnswer, parseRequest, WaitforError } from '@waitfor/core';
import { validateAnswerData } from '@waitfor/core/form';
import { schedule, scheduleUnref } from '@waitfor/runtime';
import type { Driver, Row } from './drivers/driver';
import * as sql from './sql';
import { StoreError, storeErrorOf } from './storeError';

/**
 * Runs `run` once the store's clock reaches `when` (epoch ms), however far away: each timer that
 * fires checks the clock again, so an injected `now` (or a long, chained delay) never ends a wait
 * early. `keepAlive: false` lets Node exit while it waits. Returns the function that cancels it.
 */
const runAt = (when: number, now: () => number, run: () => void, keepAlive = true) => {
  const start = keepAlive ? schedule : scheduleUnref;
  let stop = (): void => {};
  const arm = (): void => {
    stop = start(when - now(), () => (when - now() > 0 ? arm() : run()));
  };
  arm();
  return () => stop();
};

/** An Inbox whose questions live in the store: shared by every host of the fleet for one scope. */
export interface StoreInbox extends Inbox {
  /** The scope (tenant or user key) this inbox reads and answers. */
  readonly scope: string;
  /**
   * Answers through the store and resolves with the final word: true when this Answer settled the
   * question (first answer wins, across all hosts), false when it was settled, unknown or late.
   * Rejects with `invalid_answer` (a StoreError, nothing changed) for an answer that does not fit
   * the question's form schema, and with `unavailable` when the store cannot be reached.
   */
  submit(answer: Answer, options?: { answeredBy?: string }): Promise<boolean>;
  /**
   * Synchronous, so it cannot know whether another host answered first. True means: the question
   * was open in this inbox's snapshot, nothing was being sent for it here, the answer fits its form,
   * and it is now being sent — the store then decides (first answer wins; a loss goes unreported)
   * and the question leaves this snapshot either way. False: not listed here, already answered or
   * being answered through this inbox, expired, or the inbox is closed. Throws `invalid_answer` for
   * an answer that does not fit the form. Use `submit` for the final word.
   */
  answer(answer: Answer): boolean;
  /** Reloads the open questions from the store (the fallback poll does this on its own). */
  refresh(): Promise<void>;
  /** Stops listening; waits still open here resolve as cancelled (their questions stay open in the store). */
  close(): void;
}

/** Options of Store.inbox. */
export interface StoreInboxOptions {
  /** Recorded as who answered, for answers given through this inbox (e.g. the signed-in user). */
  answeredBy?: string;
}

/** What an inbox needs from its store. */
export interface InboxHost {
  driver: Driver;
  instance: string;
  now: () => number;
  keepAnswerData: boolean;
  maxOpen: number;
  report(error: StoreError): void;
  /** Ends every overdue question of `scope` (or of all scopes). */
  expireDue(scope: string | null): Promise<void>;
  forget(inbox: InboxHandle): void;
}

/** What the store calls on an inbox. */
export interface InboxHandle {
  readonly scope: string;
  /** A question of this scope opened or ended (`seq` is its row). */
  notice(event: 'open' | 'end', id: string, seq: string): void;
  refresh(): Promise<void>;
  close(cause: StoreError): void;
}

interface Open {
  seq: string;
  request: Request;
  expiry: number;
}

interface Asker {
  request: Request;
  /** The row once inserted; undefined when it never was (a duplicate, a failure). */
  seq: Promise<string | undefined>;
  /** Resolves the wait with `answer`, or rejects it with `error`; only the first call counts. */
  finish(answer: Answer | undefined, error?: Error): void;
}

/** The longest request id the store keeps: a NOTIFY payload holds a scope and an id. */
export const maxIdLength = 1000;

/** The largest Request the store keeps, in bytes of JSON: a server must not fill the database. */
export const maxRequestBytes = 1024 * 1024;

const bySeq = (a: Open, b: Open): number =>
  a.seq.length - b.seq.length || (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0);

const expiryOf = (request: Request): number =>
  request.expiresAt === undefined ? Infinity : Date.parse(request.expiresAt);

/** A row's request, or undefined for one this copy cannot read (skipped, never shown). */
function openOf(row: Row): Open | undefined {
  try {
    const request = parseRequest(row.request);
    return { seq: String(row.seq), request, expiry: expiryOf(request) };
  } catch {
    return undefined;
  }
}

/**
 * Refuses (with nothing changed) an accepted answer that does not fit the question's form, by the
 * bridge's rule: data is taken as given, so a required field left out is refused, not defaulted.
 */
function checkAgainstForm(request: Request, answer: Answer): void {
  const schema = request.data?.schema;
  if (!answer.ok || schema === undefined || request.url !== undefined) return;
  const validation = validateAnswerData(schema, answer.data);
  if (!validation.ok)
    throw new StoreError('invalid_answer', `Answer ${answer.id} does not fit its form`, {
      errors: validation.errors,
    });
}

/** Creates the inbox of one scope; the store registers the returned handle for its notices. */
export function createStoreInbox(
  host: InboxHost,
  scope: string,
  options: StoreInboxOptions,
): { inbox: StoreInbox; handle: InboxHandle } {
  const { driver, now } = host;
  const open = new Map<string, Open>();
  const askers = new Map<string, Asker>();
  const sending = new Set<string>();
  const listeners = new Set<() => void>();
  let snapshot: readonly Request[] | undefined;
  let closed: StoreError | undefined;
  let stopExpiryTimer: (() => void) | undefined;
  // Notices are handled one after another, in the order they came: an `end` never overtakes its `open`.
  // A failed task rejects its own caller and never stops the ones queued after it.
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (task: () => Promise<void>): Promise<void> => {
    const run = chain.then(task);
    chain = run.catch(() => {});
    return run;
  };

  const changed = (): void => {
    snapshot = undefined;
    scheduleExpiry();
    for (const listener of [...listeners]) listener();
  };

  // The earliest expiry among the open questions: then this host ends the overdue ones for everyone.
  const scheduleExpiry = (): void => {
    stopExpiryTimer?.();
    stopExpiryTimer = undefined;
    let earliest = Infinity;
    for (const entry of open.values()) earliest = Math.min(earliest, entry.expiry);
    if (earliest === Infinity || closed) return;
    // The asker's own timer keeps its process alive; this one is only a courtesy to the fleet.
    stopExpiryTimer = runAt(
      earliest,
      now,
      () => void host.expireDue(scope).catch((error: unknown) => host.report(storeErrorOf(error))),
      false,
    );
  };

  const query = (text: string, params: readonly unknown[]): Promise<Row[]> => {
    if (closed) return Promise.reject(closed);
    return driver.query(text, params);
  };

  /** Hands the asker of `seq` its outcome, read from the row (the one answer that won). */
  const deliver = async (asker: Asker, seq: string): Promise<void> => {
    const [row] = await query(sql.deliverOutcome, [scope, seq, host.keepAnswerData]);
    if (!row) return;
    const { request } = asker;
    if (row.state === 'answered') {
      try {
        const answer = parseAnswer(row.answer);
        if (answer.id === request.id) return asker.finish(answer);
      } catch {
        // A stored answer this copy cannot read: cancelled below, with the reason.
      }
      return asker.finish(cancel(request, new StoreError('query_failed', 'Unreadable answer')));
    }
    asker.finish(row.state === 'expired' ? expire(request) : cancel(request));
  };

  const deliverIfMine = async (id: string, seq: string): Promise<void> => {
    const asker = askers.get(id);
    if (asker && (await asker.seq) === seq) await deliver(asker, seq);
  };

  const notice = (event: 'open' | 'end', id: string, seq: string): void =>
    void enqueue(async () => {
      if (event === 'end') {
        if (open.get(id)?.seq === seq && open.delete(id)) changed();
        return deliverIfMine(id, seq);
      }
      if (open.get(id)?.seq === seq || open.size >= host.maxOpen) return;
      const [row] = await query(sql.openQuestionBySeq, [scope, seq]);
      const entry = row && openOf(row);
      if (entry && open.get(id)?.seq !== seq) {
        open.set(entry.request.id, entry);
        changed();
      }
    }).catch((error: unknown) => host.report(storeErrorOf(error)));

  const refresh = (): Promise<void> =>
    enqueue(async () => {
      const rows = await query(sql.openQuestions, [scope, host.maxOpen]);
      const next = new Map<string, Open>();
      for (const row of rows) {
        const entry = openOf(row);
        if (!entry) continue;
        // The same Request object for a question already shown: a UI keyed on it does not re-render.
        const known = open.get(entry.request.id);
        next.set(entry.request.id, known?.seq === entry.seq ? known : entry);
      }
      const same = next.size === open.size && [...next].every(([id, e]) => open.get(id) === e);
      if (!same) {
        open.clear();
        for (const [id, entry] of next) open.set(id, entry);
        changed();
      }
      // A notice missed while the connection was down: ask the store which waits have ended.
      const pending = new Map<string, Asker>();
      for (const asker of askers.values()) {
        const seq = await asker.seq;
        if (seq !== undefined) pending.set(seq, asker);
      }
      if (pending.size === 0) return;
      for (const row of await query(sql.endedAmong, [scope, [...pending.keys()]]))
        await deliver(pending.get(String(row.seq))!, String(row.seq));
    });

  /** Ends an open question as `state`; true when this call ended it. */
  const end = async (
    seq: string,
    state: 'answered' | 'cancelled' | 'expired',
    answer: Answer | null,
    answeredBy: string | undefined,
  ): Promise<boolean> => {
    const outcome = state === 'answered' ? (answer!.ok ? 'accepted' : answer!.reason!) : state;
    const rows = await query(sql.endQuestion, [
      scope,
      seq,
      state,
      answer && JSON.stringify(answer),
      outcome,
      answeredBy ?? null,
      host.keepAnswerData,
      new Date(now()).toISOString(),
    ]);
    return rows.length > 0;
  };

  /** Ends this host's own wait (abort or expiry) in the store; the waiter resolves either way. */
  const endOwn = async (asker: Asker, state: 'cancelled' | 'expired', answer: Answer) => {
    const seq = await asker.seq;
    if (seq === undefined) return;
    try {
      if (await end(seq, state, null, undefined)) return asker.finish(answer);
      // Someone ended it first: their outcome is the one.
      await deliver(asker, seq);
    } catch (error) {
      // The store is down: the wait still ends now. The row is ended by the next sweep (expiry)
      // or stays open for others to see until then (abort).
      host.report(storeErrorOf(error));
      asker.finish(answer);
    }
  };

  const waitFor: WaitFor = (request, context = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const parsed = parseRequest(request);
      const { id } = parsed;
      if (id.length > maxIdLength)
        throw new WaitforError('invalid_request', `Request.id is longer than ${maxIdLength}`, {
          path: 'id',
        });
      const json = JSON.stringify(parsed);
      if (Buffer.byteLength(json) > maxRequestBytes)
        throw new WaitforError(
          'invalid_request',
          `Request is larger than ${maxRequestBytes} bytes`,
        );
      if (closed) throw closed;
      const { signal } = context;
      if (signal?.aborted) return resolve(cancel(request, signal.reason));
      const expiry = expiryOf(parsed);
      if (!(expiry > now())) return resolve(expire(request));
      if (askers.has(id))
        throw new WaitforError('duplicate_request', `Request ${id} is open`, { path: 'id' });

      // Armed here; it fires only after the insert below has run (the expiry is still ahead).
      const stopTimer = runAt(expiry, now, () => void endOwn(asker, 'expired', expire(request)));
      const onAbort = (): void => void endOwn(asker, 'cancelled', cancel(request, signal!.reason));
      const asker: Asker = {
        request,
        seq: driver
          .query(sql.insertQuestion, [
            scope,
            id,
            parsed.kind,
            json,
            parsed.data?.origin === undefined ? null : JSON.stringify(parsed.data.origin),
            parsed.expiresAt ?? null,
            host.instance,
            null,
          ])
          .then(
            ([row]) => {
              if (row) return String(row.seq);
              asker.finish(
                undefined,
                new WaitforError('duplicate_request', `Request ${id} is open`, { path: 'id' }),
              );
              return undefined;
            },
            (error: unknown) => {
              asker.finish(undefined, storeErrorOf(error));
              return undefined;
            },
          ),
        finish(answer: Answer | undefined, error?: Error) {
          if (askers.get(id) !== asker) return;
          askers.delete(id);
          stopTimer();
          signal?.removeEventListener('abort', onAbort);
          if (answer) resolve(answer);
          else reject(error);
        },
      };
      askers.set(id, asker);
      signal?.addEventListener('abort', onAbort, { once: true });
      // Shown here at once; the NOTIFY of the insert finds it already listed.
      void asker.seq.then((seq) => {
        if (seq === undefined || open.has(id)) return;
        open.set(id, { seq, request: parsed, expiry });
        changed();
      });
    });

  /** The open entry for `id`: listed here, or looked up in the store (within this scope only). */
  const find = async (id: string): Promise<Open | undefined> => {
    const listed = open.get(id);
    if (listed) return listed;
    const [row] = await query(sql.openQuestionById, [scope, id]);
    return row && openOf(row);
  };

  const submitTo = async (entry: Open, answer: Answer, answeredBy?: string): Promise<boolean> => {
    if (entry.expiry <= now()) {
      await host.expireDue(scope);
      return false;
    }
    checkAgainstForm(entry.request, answer);
    if (await end(entry.seq, 'answered', answer, answeredBy)) return true;
    // Lost, or late: a late answer ends the question as expired for everyone.
    if (entry.expiry <= now()) await host.expireDue(scope);
    // Or the entry listed here was stale: the id was asked again since (a notice not yet handled).
    const [row] = await query(sql.openQuestionById, [scope, answer.id]);
    const current = row && openOf(row);
    return !!current && current.seq !== entry.seq && submitTo(current, answer, answeredBy);
  };

  // Settled in the store (won, lost or late): this entry is no longer open for anyone, so it leaves
  // this snapshot now rather than when its notice arrives (queued after any reload in flight).
  const settled = (entry: Open): Promise<void> =>
    enqueue(async () => {
      if (open.get(entry.request.id) === entry && open.delete(entry.request.id)) changed();
    });

  const inbox: StoreInbox = {
    scope,
    waitFor,
    getSnapshot: () => (snapshot ??= [...open.values()].sort(bySeq).map((entry) => entry.request)),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async submit(value, submitOptions = {}) {
      const answer = parseAnswer(value);
      if (closed) throw closed;
      const entry = await find(answer.id);
      if (!entry) return false;
      const won = await submitTo(entry, value, submitOptions.answeredBy ?? options.answeredBy);
      await settled(entry);
      return won;
    },
    answer(value) {
      const { id } = parseAnswer(value);
      const entry = open.get(id);
      if (!entry || sending.has(id) || closed) return false;
      if (entry.expiry <= now()) {
        void host.expireDue(scope).catch((error: unknown) => host.report(storeErrorOf(error)));
        return false;
      }
      // Checked here, before anything is sent: a form that does not fit throws at once.
      checkAgainstForm(entry.request, value);
      sending.add(id);
      submitTo(entry, value, options.answeredBy)
        .then(() => settled(entry))
        .catch((error: unknown) => host.report(storeErrorOf(error)))
        .finally(() => sending.delete(id));
      return true;
    },
    cancel(id, cause) {
      const entry = open.get(id);
      if (!entry || sending.has(id) || closed) return false;
      const asker = askers.get(id);
      if (asker) {
        void endOwn(asker, 'cancelled', cancel(asker.request, cause));
        return true;
      }
      sending.add(id);
      end(entry.seq, 'cancelled', null, options.answeredBy)
        .catch((error: unknown) => host.report(storeErrorOf(error)))
        .finally(() => sending.delete(id));
      return true;
    },
    get: (id) => open.get(id)?.request,
    refresh,
    close: () => handle.close(new StoreError('closed', `The inbox of ${scope} is closed`)),
  };

  const handle: InboxHandle = {
    scope,
    notice,
    refresh,
    close(cause) {
      if (closed) return;
      closed = cause;
      stopExpiryTimer?.();
      host.forget(handle);
      for (const asker of [...askers.values()]) asker.finish(cancel(asker.request, cause));
    },
  };
  return { inbox, handle };
}
