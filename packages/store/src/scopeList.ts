// The open questions of one scope as this host lists them: the inbox's snapshot, its listeners and
// the timer that ends the earliest overdue question. The answer path and this host's own waits
// (scopeAnswers.ts, ownQuestions.ts) read and change it through here, on one queue of work, so
// that a notice never overtakes another and the snapshot changes only when the list does.
import type { Answer, Ended, Request } from '@waitfor/core';
import { parseRequest } from '@waitfor/core';
import { createListeners, createRecentMemory } from '@waitfor/runtime';
import type { Row } from './drivers/driver';
import { runAt } from './runAt';
import { StoreError, storeErrorOf } from './storeError';
import type { InboxHost } from './storeInbox';

/** One open question as this host lists it (`seq` is its row). */
export interface Open {
  seq: string;
  request: Request;
  expiry: number;
}

/** The row this call ended, and whether a modern durable call or a task holds its question. */
export interface EndedRow {
  seq: string;
  held: boolean;
  task: boolean;
}

/** A question that left this list: its row, and how it ended where the store said so then. */
interface Left {
  seq: string;
  end: Ended | undefined;
}

const bySeq = (a: Open, b: Open): number =>
  a.seq.length - b.seq.length || (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0);

/** When `request` expires (epoch ms), Infinity when it never does. */
export const expiryOf = (request: Request): number =>
  request.expiresAt === undefined ? Infinity : Date.parse(request.expiresAt);

/** A row's request, or undefined for one this copy cannot read (skipped, never shown). */
export function openOf(row: Row): Open | undefined {
  try {
    const request = parseRequest(row.request);
    return { seq: String(row.seq), request, expiry: expiryOf(request) };
  } catch {
    return undefined;
  }
}

/**
 * How a row ended, as core's inbox says it: `closed` (the asker gone, or a task's key left the
 * task or the task ended) is the asker no longer needing the answer; undefined while it is open.
 */
export function endedOf(row: Row): Ended | undefined {
  const reason =
    row.state === 'answered' || row.state === 'expired'
      ? row.state
      : row.state === 'cancelled' || row.state === 'closed'
        ? 'cancelled'
        : undefined;
  if (reason === undefined) return undefined;
  const at = new Date(row.ended_at as string | number | Date).getTime();
  const by =
    reason === 'answered' && typeof row.answered_by === 'string' ? row.answered_by : undefined;
  return { reason, ...(by === undefined ? {} : { answeredBy: by }), at };
}

/**
 * How an `end` notice says its row ended (`t`, `b`, `a`: state, answered_by, ended_at in epoch
 * ms); undefined when it does not say all of it — an older store's notice, or one whose payload
 * would have been too long for NOTIFY with them — so the row is read instead.
 */
export function endOfNotice(notice: Record<string, unknown>): Ended | undefined {
  const { t: state, b: answeredBy, a: at } = notice;
  if (typeof state !== 'string' || typeof at !== 'number' || !Number.isFinite(at)) return undefined;
  if (answeredBy !== null && typeof answeredBy !== 'string') return undefined;
  return endedOf({ state, answered_by: answeredBy, ended_at: at });
}

/** The open questions of one scope as this host lists them, and the one queue its work runs on. */
export class ScopeList {
  private readonly open = new Map<string, Open>();
  // The questions that left this list lately, by id: how one ended, as the store said when it left
  // (an end notice, this host's own write, a reload), else read from its row when asked.
  private readonly left = createRecentMemory<Left>({}, () => this.host.now());
  private readonly listeners = createListeners((cause) =>
    this.host.reportListener(
      new StoreError('listener_failed', `A listener of the inbox of ${this.scope} threw`, {
        cause,
      }),
    ),
  );
  private snapshot: readonly Request[] | undefined;
  private stopExpiryTimer: (() => void) | undefined;
  /** Set once the inbox is closed: its queries are then refused with this. */
  closed: StoreError | undefined;
  // Notices are handled one after another, in the order they came: an `end` never overtakes its
  // `open`. A failed task rejects its own caller and never stops the ones queued after it.
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: InboxHost,
    readonly scope: string,
  ) {}

  /** Runs `task` after every task queued before it. */
  enqueue(task: () => Promise<void>): Promise<void> {
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

  /** Runs `work` with nobody awaiting it: a failure is reported to the store. */
  background(work: Promise<unknown>): void {
    work.catch((error: unknown) => this.host.report(storeErrorOf(error)));
  }

  /** A statement of this inbox, refused once it is closed. */
  query(text: string, params: readonly unknown[]): Promise<Row[]> {
    if (this.closed) return Promise.reject(this.closed);
    return this.host.driver.query(text, params);
  }

  /** Drops `id`'s entry from the list, remembering its row and how it ended; true when it was listed. */
  private drop(entry: Open, end?: Ended): boolean {
    if (!this.open.delete(entry.request.id)) return false;
    this.left.set(entry.request.id, { seq: entry.seq, end });
    return true;
  }

  /**
   * How `id` ended: at once when the store said so as it left this list (the same object until
   * the row changes again), else from its row (one read by primary key) — a question listed here
   * now or lately; undefined while its row is open (a task's answer given back) and for one this
   * list never had.
   */
  endOf(id: string): Ended | Promise<Ended | undefined> {
    const left = this.open.has(id) ? undefined : this.left.get(id);
    if (left?.end !== undefined) return left.end;
    const seq = this.open.get(id)?.seq ?? left?.seq;
    if (seq === undefined) return Promise.resolve(undefined);
    return this.endsOf([seq]).then((ends) => ends.get(seq));
  }

  /** How the rows `seqs` ended, by seq (one read by primary key); an open row is left out. */
  private async endsOf(seqs: readonly string[]): Promise<Map<string, Ended>> {
    const rows = await this.query(this.host.sql.questionEnds, [this.scope, seqs]);
    const ends = new Map<string, Ended>();
    for (const row of rows) {
      const end = endedOf(row);
      if (end) ends.set(String(row.seq), end);
    }
    return ends;
  }

  /** The entry listed here for `id`. */
  listed(id: string): Open | undefined {
    return this.open.get(id);
  }

  /** The requests listed here, oldest row first; the same array until the list changes. */
  getSnapshot(): readonly Request[] {
    return (this.snapshot ??= [...this.open.values()].sort(bySeq).map((entry) => entry.request));
  }

  /** Calls `listener` whenever the list changes; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  /** Lists this host's own question at once (its row `seq`), unless it is listed under it already. */
  showOwn(id: string, seq: string, request: Request): void {
    if (this.open.get(id)?.seq === seq) return;
    this.open.set(id, { seq, request, expiry: expiryOf(request) });
    this.changed();
  }

  /** The `open` notice of row `seq`: lists it, read from the store, unless listed or full. */
  async opened(id: string, seq: string): Promise<void> {
    // Open again (a task's answer given back): how it ended before no longer holds.
    if (this.left.get(id)?.seq === seq) this.left.set(id, { seq, end: undefined });
    if (this.open.get(id)?.seq === seq || this.open.size >= this.host.maxOpen) return;
    const [row] = await this.query(this.host.sql.openQuestionBySeq, [this.scope, seq]);
    const entry = row && openOf(row);
    if (entry && this.open.get(id)?.seq !== seq) {
      this.open.set(entry.request.id, entry);
      this.changed();
    }
  }

  /**
   * Row `seq` ended (its `end` notice, or this host's own write): it leaves the list, and `end`
   * (how, where the store said) is kept for `endOf`. A row that left already and ended again (an
   * answer closed before its asker read it) keeps the newer word, or none when none was said.
   */
  ended(id: string, seq: string, end: Ended | undefined): void {
    const entry = this.open.get(id);
    if (entry?.seq === seq) {
      if (this.drop(entry, end)) this.changed();
    } else if (this.left.get(id)?.seq === seq) this.left.set(id, { seq, end });
  }

  /**
   * Reads the open questions from the store again; not queued (the caller queues it). The rows of
   * those that left are read in one more statement first, so how each ended is known as it leaves.
   */
  async reload(): Promise<void> {
    const rows = await this.query(this.host.sql.openQuestions, [this.scope, this.host.maxOpen]);
    const next = new Map<string, Open>();
    for (const row of rows) {
      const entry = openOf(row);
      if (!entry) continue;
      // The same Request object for a question already shown: a UI keyed on it does not re-render.
      const known = this.open.get(entry.request.id);
      next.set(entry.request.id, known?.seq === entry.seq ? known : entry);
    }
    const stays = (entry: Open): boolean => next.get(entry.request.id)?.seq === entry.seq;
    const leaving = [...this.open.values()].filter((entry) => !stays(entry));
    const ends = leaving.length === 0 ? new Map() : await this.endsOf(leaving.map((e) => e.seq));
    const same =
      next.size === this.open.size && [...next].every(([id, e]) => this.open.get(id) === e);
    if (!same) {
      for (const entry of [...this.open.values()]) {
        if (stays(entry)) this.open.delete(entry.request.id);
        else this.drop(entry, ends.get(entry.seq));
      }
      for (const [id, entry] of next) this.open.set(id, entry);
      this.changed();
    }
  }

  /** The open entry for `id`: listed here, or looked up in the store (within this scope only). */
  async find(id: string): Promise<Open | undefined> {
    const listed = this.open.get(id);
    if (listed) return listed;
    const [row] = await this.query(this.host.sql.openQuestionById, [this.scope, id]);
    return row && openOf(row);
  }

  /**
   * Settled in the store (won, lost or late): this entry is no longer open for anyone, so it leaves
   * this snapshot now rather than when its notice arrives (queued after any reload in flight).
   */
  settled(entry: Open): Promise<void> {
    return this.enqueue(async () => {
      if (this.open.get(entry.request.id) === entry && this.drop(entry)) this.changed();
    });
  }

  /**
   * Ends the open question `id` (row `seq`) as `state`; the row and whether a modern durable call
   * holds it, when this call ended it — it then leaves this list at once, saying how it ended.
   */
  async end(
    id: string,
    seq: string,
    state: 'answered' | 'cancelled' | 'expired',
    answer: Answer | null,
    answeredBy: string | undefined,
  ): Promise<EndedRow | undefined> {
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
    if (!row) return undefined;
    const end = endedOf(row);
    this.background(this.enqueue(async () => this.ended(id, seq, end)));
    return { seq: String(row.seq), held: row.held === true, task: row.task === true };
  }

  /** Closes the list: its queries are refused with `cause`, and no expiry timer runs any more. */
  close(cause: StoreError): void {
    this.closed = cause;
    this.stopExpiryTimer?.();
  }
}
