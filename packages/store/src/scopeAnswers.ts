// The answers given through one scope's inbox and their deliveries: `submit` (the final word) and
// `answer`/`cancel` (sent in the background). A won answer is true once its asker read it; a task
// question's answer once its poller sent it, within the store's `taskAnswerWaitMs` or the
// question's expiry, else it is given back (removed, the question asked again) and false.
import type { Answer } from '@waitfor/core';
import { cancel, parseAnswer } from '@waitfor/core';
import { checkAnswer, checkName } from './bounds';
import { Deliveries } from './deliveries';
import type { Row } from './drivers/driver';
import type { OwnQuestions } from './ownQuestions';
import { runAt } from './runAt';
import type { EndedRow, Open, ScopeList } from './scopeList';
import { openOf } from './scopeList';
import { storeErrorOf } from './storeError';
import type { InboxHost, StoreInboxOptions } from './storeInbox';

/** The answers given through one scope's inbox, and whether their askers read them. */
export class ScopeAnswers {
  /** The answers given here whose asker has not read them yet. */
  readonly deliveries = new Deliveries();
  private readonly sending = new Set<string>();

  constructor(
    private readonly host: InboxHost,
    private readonly list: ScopeList,
    private readonly own: OwnQuestions,
    private readonly options: StoreInboxOptions,
  ) {}

  private get scope(): string {
    return this.list.scope;
  }

  /** Settles the delivery of row `seq` from its state (`row`; undefined: the row is gone). */
  settleDelivery(seq: string, row: Row | undefined): void {
    if (row?.delivered) this.deliveries.settle(seq, true);
    else if (!row || row.state === 'closed') this.deliveries.settle(seq, false);
  }

  /** Reads the rows `seqs` and settles their deliveries. */
  async checkDeliveries(seqs: string[]): Promise<void> {
    const rows = await this.list.query(this.host.sql.statesAmong, [this.scope, seqs]);
    const bySeq = new Map(rows.map((row) => [String(row.seq), row]));
    for (const seq of seqs) this.settleDelivery(seq, bySeq.get(seq));
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
    let ended: EndedRow | undefined;
    try {
      ended = await this.list.end(entry.request.id, entry.seq, 'answered', answer, answeredBy);
    } finally {
      if (!ended || ended.held) delivery.cancel();
      if (!ended?.task) due.stop();
    }
    if (ended?.task) return this.sentInTime(entry, delivery, due);
    if (ended) return ended.held ? Promise.resolve(true) : delivery.delivered;
    // Lost, or late: a late answer ends the question as expired for everyone.
    if (entry.expiry <= this.host.now()) await this.host.expireDue(this.scope);
    // Or the entry listed here was stale: the id was asked again since (a notice not yet handled).
    const [row] = await this.list.query(this.host.sql.openQuestionById, [this.scope, answer.id]);
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
      const [given] = await this.list.query(sql.giveBack, [this.scope, entry.seq, keepAnswerData]);
      if (given) {
        // Asked again past its expiry (the bound was the expiry): it ends as expired for everyone.
        if (given.state === 'open' && entry.expiry <= this.host.now())
          await this.host.expireDue(this.scope);
        return false;
      }
      // Not given back: sent, closed, or taken by a poller (the row's lock ordered the two).
      const [row] = await this.list.query(sql.questionOutcome, [this.scope, entry.seq]);
      return row?.state !== 'closed' && (row?.delivered === true || row?.taken === true);
    } finally {
      delivery.cancel();
    }
  }

  /** The inbox's `submit`: the final word on `value` (see StoreInbox.submit). */
  async submit(
    value: Answer,
    submitOptions: { answeredBy?: string; signal?: AbortSignal } = {},
  ): Promise<boolean> {
    const answer = parseAnswer(value);
    if (this.list.closed) throw this.list.closed;
    checkAnswer(undefined, value);
    // Bounded as the inbox's own option is: it is kept in the row and named in its end notice.
    const answeredBy =
      submitOptions.answeredBy === undefined
        ? this.options.answeredBy
        : checkName(submitOptions.answeredBy, 'answeredBy');
    const entry = await this.list.find(answer.id);
    if (!entry) return false;
    // Won: true once the asker has read it (a notice lost to a dropped connection is found by the
    // reload after it).
    const delivered = await this.submitTo(entry, value, answeredBy, submitOptions.signal);
    await this.list.settled(entry);
    return delivered;
  }

  /** The inbox's `answer`: sends `value` in the background (see StoreInbox.answer). */
  answerNow(value: Answer): boolean {
    const { id } = parseAnswer(value);
    const entry = this.list.listed(id);
    if (!entry || this.sending.has(id) || this.list.closed) return false;
    if (entry.expiry <= this.host.now()) {
      this.list.background(this.host.expireDue(this.scope));
      return false;
    }
    // Checked here, before anything is sent: a form that does not fit throws at once.
    checkAnswer(entry.request, value);
    this.sending.add(id);
    this.submitTo(entry, value, this.options.answeredBy)
      .then(() => this.list.settled(entry))
      .catch((error: unknown) => this.host.report(storeErrorOf(error)))
      .finally(() => this.sending.delete(id));
    return true;
  }

  /** The inbox's `cancel`: ends the question listed as `id` as cancelled, in the background. */
  cancelOne(id: string, cause?: unknown): boolean {
    const entry = this.list.listed(id);
    if (!entry || this.sending.has(id) || this.list.closed) return false;
    const asker = this.own.askers.get(id);
    if (asker) {
      void this.own.endOwn(asker, 'cancelled', cancel(asker.request, cause));
      return true;
    }
    this.sending.add(id);
    this.list
      .end(id, entry.seq, 'cancelled', null, this.options.answeredBy)
      .catch((error: unknown) => this.host.report(storeErrorOf(error)))
      .finally(() => this.sending.delete(id));
    return true;
  }
}
