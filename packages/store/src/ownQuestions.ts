// The questions this host asked in one scope (its `waitFor` waits): each one's row, its expiry and
// abort, and how its asker reads the one answer that won — asked again under a new row when the
// fleet closed it while this host was cut off, and its data scrubbed once read.
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { cancel, expire, parseAnswer, parseRequest, WaitforError } from '@waitfor/core';
import { checkRequest } from './bounds';
import { runAt } from './runAt';
import type { ScopeList } from './scopeList';
import { expiryOf } from './scopeList';
import { StoreError, storeErrorOf } from './storeError';
import type { InboxHost } from './storeInbox';

/** One wait of this host. */
export interface Asker {
  request: Request;
  /** The Request as stored: the JSON text that was asked (asked again with it after a close). */
  json: string;
  /** The row once inserted; undefined when it never was (a duplicate, a failure). */
  seq: Promise<string | undefined>;
  /** Resolves the wait with `answer`, or rejects it with `error`; only the first call counts. */
  finish(answer: Answer | undefined, error?: Error): void;
}

/** This host's own waits in one scope, by request id. */
export class OwnQuestions {
  /** The waits still open here, by request id. */
  readonly askers = new Map<string, Asker>();
  private readonly scrubs = new Set<string>();

  constructor(
    private readonly host: InboxHost,
    private readonly list: ScopeList,
  ) {}

  private get scope(): string {
    return this.list.scope;
  }

  /** The waits whose rows were inserted, by row. */
  async bySeq(): Promise<Map<string, Asker>> {
    const mine = new Map<string, Asker>();
    for (const asker of this.askers.values()) {
      const seq = await asker.seq;
      if (seq !== undefined) mine.set(seq, asker);
    }
    return mine;
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
    setTimeout(() => this.list.background(this.scrubNow()), 0);
  }

  /** Removes the data of the answers read here so far, now. */
  async scrubNow(): Promise<void> {
    const seqs = [...this.scrubs];
    this.scrubs.clear();
    if (seqs.length > 0)
      await this.host.driver.query(this.host.sql.scrubDelivered, [this.scope, seqs]);
  }

  /** Hands the asker of `seq` its outcome, read from the row (the one answer that won). */
  async deliver(asker: Asker, seq: string): Promise<void> {
    const { sql, keepAnswerData } = this.host;
    let [row] = await this.list.query(sql.deliverOutcome, [this.scope, seq]);
    if (!row) {
      // Nothing to mark: delivered already (a reply lost on the way), still open, or closed.
      [row] = await this.list.query(sql.questionOutcome, [this.scope, seq]);
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
    if (row !== undefined) this.list.showOwn(asker.request.id, row, parseRequest(asker.request));
  }

  /** Delivers row `seq` when it is the row of this host's wait for `id`. */
  async deliverIfMine(id: string, seq: string): Promise<void> {
    const asker = this.askers.get(id);
    if (asker && (await asker.seq) === seq) await this.deliver(asker, seq);
  }

  /** Ends this host's own wait (abort or expiry) in the store; the waiter resolves either way. */
  async endOwn(asker: Asker, state: 'cancelled' | 'expired', answer: Answer): Promise<void> {
    const seq = await asker.seq;
    if (seq === undefined) return;
    try {
      if (await this.list.end(asker.request.id, seq, state, null, undefined))
        return asker.finish(answer);
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

  /** Asks `request` through the store and waits for the one answer that wins. */
  readonly waitFor: WaitFor = (request, context = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const parsed = parseRequest(request);
      const json = checkRequest(parsed);
      const { id } = parsed;
      if (this.list.closed) throw this.list.closed;
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
        if (seq !== undefined && !this.list.listed(id)) this.list.showOwn(id, seq, parsed);
      });
    });
}
