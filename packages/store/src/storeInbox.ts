// The fleet inbox of one scope: what the store and its users see of it (StoreInbox, InboxHandle)
// and ScopeQuestions, which ties its parts together. The parts are scopeList.ts (the open
// questions as this host lists them), ownQuestions.ts (this host's own waits), scopeAnswers.ts
// (answers given here and their deliveries) and bounds.ts (what the store refuses to keep).
import type { Answer, Ended, Inbox } from '@waitfor/core';
import { cancel } from '@waitfor/core';
import type { Driver } from './drivers/driver';
import { OwnQuestions } from './ownQuestions';
import { ScopeAnswers } from './scopeAnswers';
import { ScopeList } from './scopeList';
import type { QuestionStatements } from './sql';
import { StoreError, storeErrorOf } from './storeError';

export { maxAnswerBytes, maxIdLength, maxRequestBytes } from './bounds';

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
  /**
   * How the question `id` ended: `answered` (with the `answeredBy` the answer was given under),
   * `expired`, or `cancelled` (aborted, cancelled, or closed: its asker gone, its task's key
   * withdrawn or its task ended). At once (not a promise) when the store said so as the question
   * left this inbox's list — its end notice, this host's own answer, a reload — else read from its
   * row (one read by primary key). Known for the questions this inbox listed, the last 1,024 that
   * left it within 10 minutes; undefined while the row is open (a task's answer given back) and
   * for any other id. A read rejects with `unavailable` when the store cannot be reached.
   */
  ended(id: string): Ended | Promise<Ended | undefined>;
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
  /**
   * `state` is the state an `end` left the row in, `end` how it ended (older stores do not say;
   * a notice too long for NOTIFY with it says only `state`).
   */
  notice(event: QuestionEvent, id: string, seq: string, state?: string, end?: Ended): void;
  refresh(): Promise<void>;
  /** Ends this inbox: its waits resolve cancelled and their rows end cancelled (best effort). */
  close(cause: StoreError): Promise<void>;
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
  private readonly list: ScopeList;
  private readonly own: OwnQuestions;
  private readonly answers: ScopeAnswers;

  constructor(
    private readonly host: InboxHost,
    readonly scope: string,
    options: StoreInboxOptions,
  ) {
    this.list = new ScopeList(host, scope);
    this.own = new OwnQuestions(host, this.list);
    this.answers = new ScopeAnswers(host, this.list, this.own, options);
  }

  notice(event: QuestionEvent, id: string, seq: string, state?: string, end?: Ended): void {
    this.list.background(
      this.list.enqueue(async () => {
        const { deliveries } = this.answers;
        if (event === 'delivered') return deliveries.settle(seq, true);
        if (event === 'end') {
          this.list.ended(id, seq, end);
          // An answer given here whose row ended again: closed before its asker read it.
          if (deliveries.has(seq) && (state === undefined || state === 'closed'))
            await this.answers.checkDeliveries([seq]);
          return this.own.deliverIfMine(id, seq);
        }
        return this.list.opened(id, seq);
      }),
    );
  }

  refresh(): Promise<void> {
    return this.list.enqueue(async () => {
      await this.list.reload();
      await this.checkMissed();
    });
  }

  /** Notices missed while the connection was down: asks the store which waits and answers ended. */
  private async checkMissed(): Promise<void> {
    const mine = await this.own.bySeq();
    const given = this.answers.deliveries.pending();
    if (mine.size === 0 && given.length === 0) return;
    const rows = await this.list.query(this.host.sql.statesAmong, [
      this.scope,
      [...new Set([...mine.keys(), ...given])],
    ]);
    for (const row of rows) {
      const seq = String(row.seq);
      this.answers.settleDelivery(seq, row);
      const asker = mine.get(seq);
      if (asker && row.state !== 'open') await this.own.deliver(asker, seq);
    }
  }

  async close(cause: StoreError): Promise<void> {
    if (this.list.closed) return;
    const { askers } = this.own;
    // Nobody is left to read their answers: the rows end for everyone, then the waits resolve.
    await Promise.all(
      [...askers.values()].map((asker) =>
        this.own.endOwn(asker, 'cancelled', cancel(asker.request, cause)),
      ),
    );
    await this.own.scrubNow().catch((error: unknown) => this.host.report(storeErrorOf(error)));
    this.list.close(cause);
    this.host.forget(this);
    this.answers.deliveries.close(cause);
    for (const asker of [...askers.values()]) asker.finish(cancel(asker.request, cause));
  }

  /** The public face of this scope's questions. */
  inbox(): StoreInbox {
    return {
      scope: this.scope,
      waitFor: this.own.waitFor,
      getSnapshot: () => this.list.getSnapshot(),
      subscribe: (listener) => this.list.subscribe(listener),
      submit: (answer, submitOptions) => this.answers.submit(answer, submitOptions),
      answer: (answer) => this.answers.answerNow(answer),
      cancel: (id, cause) => this.answers.cancelOne(id, cause),
      get: (id) => this.list.listed(id)?.request,
      ended: (id) => this.list.endOf(id),
      refresh: () => this.refresh(),
      close: () =>
        this.list.background(
          this.close(new StoreError('closed', `The inbox of ${this.scope} is closed`)),
        ),
    };
  }
}
