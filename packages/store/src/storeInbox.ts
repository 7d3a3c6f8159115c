import type { Answer, Inbox, Request, WaitFor } from '@waitfor/core';
import { cancel, expire, parseAnswer, parseRequest, WaitforError } from '@waitfor/core';
import { validateAnswerData } from '@waitfor/core/form';
import { createListeners, schedule, scheduleUnref } from '@waitfor/runtime';
import { Deliveries } from './deliveries';
import type { Driver, Row } from './drivers/driver';
import type { QuestionStatements } from './sql';
import { StoreError, storeErrorOf } from './storeError';

/** An Inbox whose questions live in the store: shared by every host of the fleet for one scope. */
export interface StoreInbox extends Inbox {
  /** The scope (tenant or user key) this inbox reads and answers. */
  readonly scope: string;
  /**
   * Core's `Inbox.submit` contract across a fleet: true once the host that asked has read this
   * Answer (first answer wins, across all hosts; for a modern durable call's question, once the call
   * holds it; for a task's, once its poller sent it to the server), false when the question was
   * settled, unknown or late, or when its asker turned out to be gone before it read the answer, or
   * its task's key left the task before the answer was sent (the question is then closed), or no
   * poller of its task took the answer to send it by the question's expiry or within the store's
   * `taskAnswerWaitMs` (the answer is removed and the question asked again). Rejects with
   * `invalid_answer` (nothing changed) for an answer that does not fit the question's form schema
   * or is too large, with `unavailable` when the store cannot be reached, and with the signal's
   * reason when `signal` aborts the wait for the asker (the answer may still be delivered).
   */
  submit(answer: Answer, options?: { answeredBy?: string; signal?: AbortSignal }): Promise<boolean>;
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
  /**
   * Stops listening; waits still open here resolve as cancelled and their questions end
   * `cancelled` for everyone (nobody is left to read their answers).
   */
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
  sql: QuestionStatements;
  instance: string;
  now: () => number;
  keepAnswerData: boolean;
  maxOpen: number;
  /** How long `submit` waits for a task's poller to take an answer before giving it back. */
  taskAnswerWaitMs: number;
  report(error: StoreError): void;
  /** Told of an inbox listener that threw (a StoreError `listener_failed`). */
  reportListener(error: StoreError): void;
  /** Ends every overdue question of `scope` (or of all scopes). */
  expireDue(scope: string | null): Promise<void>;
  forget(inbox: InboxHandle): void;
}

/** A notice of the store about one question of a scope (`seq` is its row). */
export type QuestionEvent = 'open' | 'end' | 'delivered';

/** What the store calls on an inbox. */
export interface InboxHandle {
  readonly scope: string;
  /** `state` is the state an `end` left the row in (older stores do not say). */
  notice(event: QuestionEvent, id: string, seq: string, state?: string): void;
  refresh(): Promise<void>;
  /** Ends this inbox: its waits resolve cancelled and their rows end cancelled (best effort). */
  close(cause: StoreError): Promise<void>;
}

interface Open {
  seq: string;
  request: Request;
  expiry: number;
}

interface Asker {
  request: Request;
  /** The Request as stored: the JSON text that was asked (asked again with it after a close). */
  json: string;
  /** The row once inserted; undefined when it never was (a duplicate, a failure). */
  seq: Promise<string | undefined>;
  /** Resolves the wait with `answer`, or rejects it with `error`; only the first call counts. */
  finish(answer: Answer | undefined, error?: Error): void;
}

/** The longest request id the store keeps: a NOTIFY payload holds a scope and an id. */
export const maxIdLength = 1000;

/** The largest Request the store keeps, in bytes of JSON: a server must not fill the database. */
export const maxRequestBytes = 1024 * 1024;

/** The largest Answer the store keeps, in bytes of JSON: a person's browser must not fill it either. */
export const maxAnswerBytes = 1024 * 1024;

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

/** True when `value` holds U+0000, which no PostgreSQL text column can store. */
export const hasNul = (value: string): boolean => value.includes('\u0000');

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

/**
 * Refuses (with nothing changed) an answer the store must not keep: larger than maxAnswerBytes,
 * a reason no text column holds, or an accepted form that does not fit the question's schema by the
 * bridge's rule (data is taken as given, so a required field left out is refused, not defaulted).
 */
function checkAnswer(request: Request | undefined, answer: Answer): void {
  const bytes = Buffer.byteLength(JSON.stringify(answer));
  if (bytes > maxAnswerBytes)
    throw new StoreError(
      'invalid_answer',
      `Answer ${answer.id} is larger than ${maxAnswerBytes} bytes`,
    );
  if (answer.reason !== undefined && hasNul(answer.reason))
    throw new StoreError('invalid_answer', `Answer ${answer.id} has a reason holding U+0000`);
  const schema = request?.data?.schema;
  if (!request || !answer.ok || schema === undefined || request.url !== undefined) return;
  const validation = validateAnswerData(schema, answer.data);
  if (!validation.ok)
    throw new StoreError('invalid_answer', `Answer ${answer.id} does not fit its form`, {
      errors: validation.errors,
    });
}

/** Refuses a Request the store cannot keep as it is, before anything is written; returns its JSON. */
export function checkRequest(parsed: Request): string {
  const { id } = parsed;
  if (id.length > maxIdLength)
    throw new WaitforError('invalid_request', `Request.id is longer than ${maxIdLength}`, {
      path: 'id',
    });
  if (hasNul(id) || hasNul(parsed.kind))
    throw new WaitforError('invalid_request', 'Request.id and Request.kind must not hold U+0000', {
      path: hasNul(id) ? 'id' : 'kind',
    });
  const json = JSON.stringify(parsed);
  if (Buffer.byteLength(json) > maxRequestBytes)
    throw new WaitforError('invalid_request', `Request is larger than ${maxRequestBytes} bytes`);
  return json;
}

/** Creates the inbox of one scope; the store registers the returned handle for its notices. */
export function createStoreInbox(
  host: InboxHost,
  scope: string,
  options: StoreInboxOptions,
): { inbox: StoreInbox; handle: InboxHandle } {
  const questions = new ScopeQuestions(host, scope, options);
  return { inbox: questions.inbox(), handle: questions };
}

/** The open questions of one scope as this host sees them, its own waits, and answers given here. */
class ScopeQuestions implements InboxHandle {
  private readonly open = new Map<string, Open>();
  private readonly askers = new Map<string, Asker>();
  private readonly sending = new Set<string>();
  private readonly deliveries = new Deliveries();
  private readonly scrubs = new Set<string>();
  private readonly listeners = createListeners((cause) =>
    this.host.reportListener(
      new StoreError('listener_failed', `A listener of the inbox of ${this.scope} threw`, {
        cause,
      }),
    ),
  );
  private snapshot: readonly Request[] | undefined;
  private closed: StoreError | undefined;
  private stopExpiryTimer: (() => void) | undefined;
  // Notices are handled one after another, in the order they came: an `end` never overtakes its
  // `open`. A failed task rejects its own caller and never stops the ones queued after it.
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: InboxHost,
    readonly scope: string,
    private readonly options: StoreInboxOptions,
  ) {}

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(task);
    this.chain = run.catch(() => {});
    return run;
  }

  private changed(): void {
    this.snapshot = undefined;
    this.scheduleExpiry();
    this.listeners.emit();
  }

  // The earliest expiry among the open questions: then this host ends the overdue ones for everyone.
  private scheduleExpiry(): void {
    this.stopExpiryTimer?.();
    this.stopExpiryTimer = undefined;
    let earliest = Infinity;
    for (const entry of this.open.values()) earliest = Math.min(earliest, entry.expiry);
    if (earliest === Infinity || this.closed) return;
    // The asker's own timer keeps its process alive; this one is only a courtesy to the fleet.
    this.stopExpiryTimer = runAt(
      earliest,
      this.host.now,
      () => this.background(this.host.expireDue(this.scope)),
      false,
    );
  }

  /**
   * Removes the data of answers read here, many rows in one statement: the answers read in the
   * same turn of the event loop go together (one statement per answer cost a fleet a third of
   * its throughput). Kept separate from the read itself, so that a read whose reply was lost can be
   * read again, data and all.
   */
  private scrubSoon(seq: string): void {
    this.scrubs.add(seq);
    if (this.scrubs.size > 1) return;
    setTimeout(() => this.background(this.scrubNow()), 0);
  }

  private async scrubNow(): Promise<void> {
    const seqs = [...this.scrubs];
    this.scrubs.clear();
    if (seqs.length > 0)
      await this.host.driver.query(this.host.sql.scrubDelivered, [this.scope, seqs]);
  }

  private background(work: Promise<unknown>): void {
    work.catch((error: unknown) => this.host.report(storeErrorOf(error)));
  }

  private query(text: string, params: readonly unknown[]): Promise<Row[]> {
    if (this.closed) return Promise.reject(this.closed);
    return this.host.driver.query(text, params);
  }

  /** Hands the asker of `seq` its outcome, read from the row (the one answer that won). */
  private async deliver(asker: Asker, seq: string): Promise<void> {
    const { sql, keepAnswerData } = this.host;
    let [row] = await this.query(sql.deliverOutcome, [this.scope, seq]);
    if (!row) {
      // Nothing to mark: delivered already (a reply lost on the way), still open, or closed.
      [row] = await this.query(sql.questionOutcome, [this.scope, seq]);
      if (row?.state === 'closed') return this.askAgain(asker);
      if (!row?.delivered) return;
    }
    const { request } = asker;
    if (row.state === 'answered') {
      let answer: Answer | undefined;
      try {
        answer = parseAnswer(row.answer);
      } catch {
        // A stored answer this copy cannot read: cancelled below, with the reason.
      }
      if (answer?.id !== request.id)
        return asker.finish(cancel(request, new StoreError('query_failed', 'Unreadable answer')));
      asker.finish(answer);
      // Read: its data was only kept to reach this host.
      if (!keepAnswerData) this.scrubSoon(seq);
      return;
    }
    asker.finish(row.state === 'expired' ? expire(request) : cancel(request));
  }

  /**
   * The fleet closed a question of this live host (it took the host for gone: cut off from the
   * database for longer than its lease and the grace after it). The wait goes on: the question is
   * asked again under a new row, and every inbox lists it again.
   */
  private async askAgain(asker: Asker): Promise<void> {
    if (this.askers.get(asker.request.id) !== asker) return;
    const seq = this.insert(asker, asker.json);
    asker.seq = seq;
    const row = await seq;
    if (row !== undefined) this.showOwn(asker.request.id, row, parseRequest(asker.request));
  }

  private showOwn(id: string, seq: string, request: Request): void {
    if (this.open.get(id)?.seq === seq) return;
    this.open.set(id, { seq, request, expiry: expiryOf(request) });
    this.changed();
  }

  private async deliverIfMine(id: string, seq: string): Promise<void> {
    const asker = this.askers.get(id);
    if (asker && (await asker.seq) === seq) await this.deliver(asker, seq);
  }

  notice(event: QuestionEvent, id: string, seq: string, state?: string): void {
    this.background(
      this.enqueue(async () => {
        if (event === 'delivered') return this.deliveries.settle(seq, true);
        if (event === 'end') {
          if (this.open.get(id)?.seq === seq && this.open.delete(id)) this.changed();
          // An answer given here whose row ended again: closed before its asker read it.
          if (this.deliveries.has(seq) && (state === undefined || state === 'closed'))
            await this.checkDeliveries([seq]);
          return this.deliverIfMine(id, seq);
        }
        if (this.open.get(id)?.seq === seq || this.open.size >= this.host.maxOpen) return;
        const [row] = await this.query(this.host.sql.openQuestionBySeq, [this.scope, seq]);
        const entry = row && openOf(row);
        if (entry && this.open.get(id)?.seq !== seq) {
          this.open.set(entry.request.id, entry);
          this.changed();
        }
      }),
    );
  }

  refresh(): Promise<void> {
    return this.enqueue(async () => {
      const rows = await this.query(this.host.sql.openQuestions, [this.scope, this.host.maxOpen]);
      const next = new Map<string, Open>();
      for (const row of rows) {
        const entry = openOf(row);
        if (!entry) continue;
        // The same Request object for a question already shown: a UI keyed on it does not re-render.
        const known = this.open.get(entry.request.id);
        next.set(entry.request.id, known?.seq === entry.seq ? known : entry);
      }
      const same =
        next.size === this.open.size && [...next].every(([id, e]) => this.open.get(id) === e);
      if (!same) {
        this.open.clear();
        for (const [id, entry] of next) this.open.set(id, entry);
        this.changed();
      }
      await this.checkMissed();
    });
  }

  /** Notices missed while the connection was down: asks the store which waits and answers ended. */
  private async checkMissed(): Promise<void> {
    const mine = new Map<string, Asker>();
    for (const asker of this.askers.values()) {
      const seq = await asker.seq;
      if (seq !== undefined) mine.set(seq, asker);
    }
    const given = this.deliveries.pending();
    if (mine.size === 0 && given.length === 0) return;
    const rows = await this.query(this.host.sql.statesAmong, [
      this.scope,
      [...new Set([...mine.keys(), ...given])],
    ]);
    for (const row of rows) {
      const seq = String(row.seq);
      this.settleDelivery(seq, row);
      const asker = mine.get(seq);
      if (asker && row.state !== 'open') await this.deliver(asker, seq);
    }
  }

  private settleDelivery(seq: string, row: Row | undefined): void {
    if (row?.delivered) this.deliveries.settle(seq, true);
    else if (!row || row.state === 'closed') this.deliveries.settle(seq, false);
  }

  private async checkDeliveries(seqs: string[]): Promise<void> {
    const rows = await this.query(this.host.sql.statesAmong, [this.scope, seqs]);
    const bySeq = new Map(rows.map((row) => [String(row.seq), row]));
    for (const seq of seqs) this.settleDelivery(seq, bySeq.get(seq));
  }

  /** Ends an open question as `state`; the row and whether a modern durable call holds it, when this call ended it. */
  private async end(
    seq: string,
    state: 'answered' | 'cancelled' | 'expired',
    answer: Answer | null,
    answeredBy: string | undefined,
  ): Promise<{ seq: string; held: boolean; task: boolean } | undefined> {
    const outcome = state === 'answered' ? (answer!.ok ? 'accepted' : answer!.reason!) : state;
    const [row] = await this.query(this.host.sql.endQuestion, [
      this.scope,
      seq,
      state,
      answer && JSON.stringify(answer),
      outcome,
      answeredBy ?? null,
      this.host.keepAnswerData,
      new Date(this.host.now()).toISOString(),
    ]);
    return row && { seq: String(row.seq), held: row.held === true, task: row.task === true };
  }

  /** Ends this host's own wait (abort or expiry) in the store; the waiter resolves either way. */
  private async endOwn(
    asker: Asker,
    state: 'cancelled' | 'expired',
    answer: Answer,
  ): Promise<void> {
    const seq = await asker.seq;
    if (seq === undefined) return;
    try {
      if (await this.end(seq, state, null, undefined)) return asker.finish(answer);
      // Someone ended it first: their outcome is the one.
      await this.deliver(asker, seq);
    } catch (error) {
      // The store is down: the wait still ends now. The row is ended by the next sweep (expiry),
      // or closed once this host's lease runs out, or when it starts again (abort).
      this.host.report(storeErrorOf(error));
      asker.finish(answer);
    }
  }

  /** Inserts the asker's question; resolves with its row, or undefined (the wait then fails). */
  private insert(asker: Asker, json: string): Promise<string | undefined> {
    const request = parseRequest(asker.request);
    const { id } = request;
    return this.host.driver
      .query(this.host.sql.insertQuestion, [
        this.scope,
        id,
        request.kind,
        json,
        request.data?.origin === undefined ? null : JSON.stringify(request.data.origin),
        request.expiresAt ?? null,
        this.host.instance,
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
      );
  }

  readonly waitFor: WaitFor = (request, context = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const parsed = parseRequest(request);
      const json = checkRequest(parsed);
      const { id } = parsed;
      if (this.closed) throw this.closed;
      const { signal } = context;
      if (signal?.aborted) return resolve(cancel(request, signal.reason));
      const expiry = expiryOf(parsed);
      if (!(expiry > this.host.now())) return resolve(expire(request));
      if (this.askers.has(id))
        throw new WaitforError('duplicate_request', `Request ${id} is open`, { path: 'id' });

      // Armed here; it fires only after the insert below has run (the expiry is still ahead).
      const stopTimer = runAt(
        expiry,
        this.host.now,
        () => void this.endOwn(asker, 'expired', expire(request)),
      );
      const onAbort = (): void =>
        void this.endOwn(asker, 'cancelled', cancel(request, signal!.reason));
      const asker: Asker = {
        request,
        json,
        seq: Promise.resolve(undefined),
        finish: (answer, error) => {
          if (this.askers.get(id) !== asker) return;
          this.askers.delete(id);
          stopTimer();
          signal?.removeEventListener('abort', onAbort);
          if (answer) resolve(answer);
          else reject(error);
        },
      };
      this.askers.set(id, asker);
      asker.seq = this.insert(asker, json);
      signal?.addEventListener('abort', onAbort, { once: true });
      // Shown here at once; the NOTIFY of the insert finds it already listed.
      void asker.seq.then((seq) => {
        if (seq !== undefined && !this.open.has(id)) this.showOwn(id, seq, parsed);
      });
    });

  /** The open entry for `id`: listed here, or looked up in the store (within this scope only). */
  private async find(id: string): Promise<Open | undefined> {
    const listed = this.open.get(id);
    if (listed) return listed;
    const [row] = await this.query(this.host.sql.openQuestionById, [this.scope, id]);
    return row && openOf(row);
  }

  /**
   * Answers `entry` (or the row its id was asked again under); resolves with whether it won and,
   * when it won, whether its asker read it (`delivered`, true at once for a modern durable call;
   * for a task's question, see `sentInTime`).
   */
  private async submitTo(
    entry: Open,
    answer: Answer,
    answeredBy?: string,
    signal?: AbortSignal,
  ): Promise<Promise<boolean> | false> {
    if (entry.expiry <= this.host.now()) {
      await this.host.expireDue(this.scope);
      return false;
    }
    checkAnswer(entry.request, answer);
    const delivery = this.deliveries.expect(entry.seq, signal);
    // Armed before the answer is written, so the bound of a task's wait runs from the submit.
    const due = this.dueAt(Math.min(entry.expiry, this.host.now() + this.host.taskAnswerWaitMs));
    let ended: { seq: string; held: boolean; task: boolean } | undefined;
    try {
      ended = await this.end(entry.seq, 'answered', answer, answeredBy);
    } finally {
      if (!ended || ended.held) delivery.cancel();
      if (!ended?.task) due.stop();
    }
    if (ended?.task) return this.sentInTime(entry, delivery, due);
    if (ended) return ended.held ? Promise.resolve(true) : delivery.delivered;
    // Lost, or late: a late answer ends the question as expired for everyone.
    if (entry.expiry <= this.host.now()) await this.host.expireDue(this.scope);
    // Or the entry listed here was stale: the id was asked again since (a notice not yet handled).
    const [row] = await this.query(this.host.sql.openQuestionById, [this.scope, answer.id]);
    const current = row && openOf(row);
    return current && current.seq !== entry.seq
      ? this.submitTo(current, answer, answeredBy, signal)
      : false;
  }

  /** A promise that resolves once the store's clock reaches `when`; `stop` cancels it. */
  private dueAt(when: number): { reached: Promise<void>; stop(): void } {
    let reach = (): void => {};
    const reached = new Promise<void>((resolve) => (reach = resolve));
    const stop = runAt(when, this.host.now, reach);
    return { reached, stop };
  }

  /**
   * The word on a task's answer: true once the task's poller sent it, false once it was closed
   * (its key left the task first). Nothing may wait without end — no host may be polling the task
   * (every one that held it died and none took over yet, or they stopped) — so once `due` is
   * reached, an answer no poller took is given back: removed, the question asked again, and false.
   * One a poller took is true: it went out with a `tasks/update`, or goes out with the next
   * poller's should that one die (taken answers are sent at least once, never given back).
   */
  private async sentInTime(
    entry: Open,
    delivery: { delivered: Promise<boolean>; cancel(): void },
    due: { reached: Promise<void>; stop(): void },
  ): Promise<boolean> {
    try {
      const word = await Promise.race([delivery.delivered, due.reached]);
      if (word !== undefined) return word;
    } finally {
      due.stop();
    }
    const { sql, keepAnswerData } = this.host;
    try {
      const [given] = await this.query(sql.giveBack, [this.scope, entry.seq, keepAnswerData]);
      if (given) {
        // Asked again past its expiry (the bound was the expiry): it ends as expired for everyone.
        if (given.state === 'open' && entry.expiry <= this.host.now())
          await this.host.expireDue(this.scope);
        return false;
      }
      // Not given back: sent, closed, or taken by a poller (the row's lock ordered the two).
      const [row] = await this.query(sql.questionOutcome, [this.scope, entry.seq]);
      return row?.state !== 'closed' && (row?.delivered === true || row?.taken === true);
    } finally {
      delivery.cancel();
    }
  }

  // Settled in the store (won, lost or late): this entry is no longer open for anyone, so it leaves
  // this snapshot now rather than when its notice arrives (queued after any reload in flight).
  private settled(entry: Open): Promise<void> {
    return this.enqueue(async () => {
      if (this.open.get(entry.request.id) === entry && this.open.delete(entry.request.id))
        this.changed();
    });
  }

  private async submit(
    value: Answer,
    submitOptions: { answeredBy?: string; signal?: AbortSignal } = {},
  ): Promise<boolean> {
    const answer = parseAnswer(value);
    if (this.closed) throw this.closed;
    checkAnswer(undefined, value);
    const entry = await this.find(answer.id);
    if (!entry) return false;
    const answeredBy = submitOptions.answeredBy ?? this.options.answeredBy;
    // Won: true once the asker has read it (a notice lost to a dropped connection is found by the
    // reload after it).
    const delivered = await this.submitTo(entry, value, answeredBy, submitOptions.signal);
    await this.settled(entry);
    return delivered;
  }

  private answerNow(value: Answer): boolean {
    const { id } = parseAnswer(value);
    const entry = this.open.get(id);
    if (!entry || this.sending.has(id) || this.closed) return false;
    if (entry.expiry <= this.host.now()) {
      this.background(this.host.expireDue(this.scope));
      return false;
    }
    // Checked here, before anything is sent: a form that does not fit throws at once.
    checkAnswer(entry.request, value);
    this.sending.add(id);
    this.submitTo(entry, value, this.options.answeredBy)
      .then(() => this.settled(entry))
      .catch((error: unknown) => this.host.report(storeErrorOf(error)))
      .finally(() => this.sending.delete(id));
    return true;
  }

  private cancelOne(id: string, cause?: unknown): boolean {
    const entry = this.open.get(id);
    if (!entry || this.sending.has(id) || this.closed) return false;
    const asker = this.askers.get(id);
    if (asker) {
      void this.endOwn(asker, 'cancelled', cancel(asker.request, cause));
      return true;
    }
    this.sending.add(id);
    this.end(entry.seq, 'cancelled', null, this.options.answeredBy)
      .catch((error: unknown) => this.host.report(storeErrorOf(error)))
      .finally(() => this.sending.delete(id));
    return true;
  }

  async close(cause: StoreError): Promise<void> {
    if (this.closed) return;
    const askers = [...this.askers.values()];
    // Nobody is left to read their answers: the rows end for everyone, then the waits resolve.
    await Promise.all(
      askers.map((asker) => this.endOwn(asker, 'cancelled', cancel(asker.request, cause))),
    );
    await this.scrubNow().catch((error: unknown) => this.host.report(storeErrorOf(error)));
    this.closed = cause;
    this.stopExpiryTimer?.();
    this.host.forget(this);
    this.deliveries.close(cause);
    for (const asker of [...this.askers.values()]) asker.finish(cancel(asker.request, cause));
  }

  /** The public face of this scope's questions. */
  inbox(): StoreInbox {
    return {
      scope: this.scope,
      waitFor: this.waitFor,
      getSnapshot: () =>
        (this.snapshot ??= [...this.open.values()].sort(bySeq).map((entry) => entry.request)),
      subscribe: (listener) => this.listeners.add(listener),
      submit: (answer, submitOptions) => this.submit(answer, submitOptions),
      answer: (answer) => this.answerNow(answer),
      cancel: (id, cause) => this.cancelOne(id, cause),
      get: (id) => this.open.get(id)?.request,
      refresh: () => this.refresh(),
      close: () =>
        this.background(
          this.close(new StoreError('closed', `The inbox of ${this.scope} is closed`)),
        ),
    };
  }
}
