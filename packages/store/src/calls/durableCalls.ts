import { randomUUID } from 'node:crypto';
import type { Answer, Request } from '@waitfor/core';
import { cancel, expire, parseAnswer, parseRequest } from '@waitfor/core';
import type { Bridge, DurableOutcome, Suspension } from '@waitfor/mcp-bridge';
import { checkRequest } from '../bounds';
import type { Driver, Queryable, Row } from '../drivers/driver';
import type { QuestionStatements } from '../sql';
import { StoreError, storeErrorOf } from '../storeError';
import type { CallStatements } from './callSql';
import type { PollHost, SavedTask, Unsent } from './taskCalls';
import { changeQuestions, isTask, TaskPoller } from './taskCalls';

/** Options of Store.durableCalls. */
export interface DurableCallsOptions {
  /**
   * The bridge this host reaches the server `serverKey` through for a call in `scope`
   * (`attachWaitFor`'s, or a `connect` connection; either era). Called when this host makes a
   * call, and when it claims a call to resume. A 2026-07-28 call's questions go through the store
   * whatever the bridge's waitFor. A 2025-11-25 task's questions are pushed to the bridge that
   * re-attaches to it, so for any host to answer them that bridge's waitFor must be this store's
   * inbox of `scope` (`(await store.inbox(scope)).waitFor`): one attachment per server and scope.
   */
  clientFor(serverKey: string, scope: string): DurableCaller | Promise<DurableCaller>;
  /** How long a claim holds without renewal; a dead host's call is taken over after it (default 30 s). */
  leaseMs?: number;
  /** Claim and resume ready calls on this host (default true; false: this host only makes calls). */
  work?: boolean;
  /**
   * After a failure that may pass (the client could not be had or lost its connection, a timeout),
   * the call is tried again this much later, by any host (default 5 s), doubled after each attempt …
   */
  retryMs?: number;
  /**
   * … and claimed at most this many times in all (default 5): a claim whose host died counts too.
   * Then it fails.
   */
  maxAttempts?: number;
}

/** What durable calls call through: a bridge's (or a connection's) `callTool` and `resume`. */
export type DurableCaller = Pick<Bridge, 'callTool' | 'resume'>;

/** Where a durable call stands after `callTool`. */
export type DurableCallStart =
  | { callId: string; status: 'complete'; result: Record<string, unknown> }
  | { callId: string; status: 'waiting' };

/** Durable calls (modern-era rounds, tasks of either revision) whose questions any host answers and any host resumes. */
export interface DurableCalls {
  /**
   * Calls a tool durably on the server `serverKey`, in `scope`. Complete at once, or saved with
   * its questions (listed by every inbox of the scope) until they are answered.
   */
  callTool(
    scope: string,
    serverKey: string,
    params: { name: string; arguments?: Record<string, unknown> },
  ): Promise<DurableCallStart>;
  /** The call's result once complete, from whichever host resumed it; `call_failed` when it failed. */
  result(callId: string, options?: { signal?: AbortSignal }): Promise<Record<string, unknown>>;
  /** Claims and resumes ready calls now (notices and the store's poll do this on their own). */
  work(): Promise<void>;
  /** Stops working on this host; a call it was resuming is taken over once its lease expires. */
  close(): void;
}

/** What durable calls need from their store. */
export interface CallsHost {
  driver: Driver;
  instance: string;
  keepAnswerData: boolean;
  report(error: StoreError): void;
  sql: QuestionStatements;
  calls: CallStatements;
}

/** A completed call's result as its `done` notice carried it: the stored row's own json. */
export interface CarriedResult {
  result: Record<string, unknown>;
}

/** What the store calls on durable calls: a call became ready or ended (with its result, if carried). */
export interface CallsHandle {
  notice(callId: string, event: 'ready' | 'done', done?: CarriedResult): void;
  /** The fallback poll: claims what is ready and lets every awaited result be read again. */
  poll(): Promise<void>;
  close(): void;
}

// The bridge's errors that say the call itself is wrong (answers, server, protocol): retrying would
// only repeat them. Any other failure — the client, the connection, a timeout — may pass.
const lasting = new Set([
  'invalid_params',
  'invalid_suspension',
  'invalid_options',
  'rounds_exceeded',
  'unknown_result_type',
  'unsupported_input_request',
  'durable_unsupported',
  'answer_mismatch',
  'invalid_answer',
  'server_error',
  // A task that ended on the server, or a reference this host's bridge refuses to present.
  'task_failed',
  'task_cancelled',
  'foreign_reference',
]);

const passing = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return !(typeof code === 'string' && lasting.has(code));
};

/** The Answer a call resumes with for one of its Requests, from the question's ended row. */
function answerOf(request: Request, row: Row | undefined): Answer {
  if (row?.state === 'answered') {
    try {
      const answer = parseAnswer(row.answer);
      if (answer.id === request.id) return answer;
    } catch {
      // Unreadable: cancelled below.
    }
  }
  return row?.state === 'expired' ? expire(request) : cancel(request);
}

/** Inserts the questions of a suspension, each tied to the call. */
async function insertQuestions(
  tx: Queryable,
  sql: QuestionStatements,
  scope: string,
  callId: string,
  instance: string,
  requests: readonly Request[],
): Promise<void> {
  for (const request of requests) {
    // A server's questions get the checks of any Request the store keeps.
    const json = checkRequest(parseRequest(request));
    const rows = await tx.query(sql.insertQuestion, [
      scope,
      request.id,
      request.kind,
      json,
      request.data?.origin === undefined ? null : JSON.stringify(request.data.origin),
      request.expiresAt ?? null,
      instance,
      callId,
    ]);
    if (rows.length === 0)
      throw new StoreError('call_failed', `Request ${request.id} is already open in ${scope}`);
  }
}

/** The rows of the answers a resume sent, as the JSON array `markSent` takes. */
const seqsOf = (sent: readonly Unsent[]): string => JSON.stringify(sent.map(({ seq }) => seq));

/** Creates the durable calls of one host; the store registers the handle for its notices. */
export function createDurableCalls(
  host: CallsHost,
  options: DurableCallsOptions,
): { calls: DurableCalls; handle: CallsHandle } {
  const hostCalls = new HostCalls(host, options);
  return { calls: hostCalls.calls(), handle: hostCalls };
}

/** The durable calls of one host: the calls it makes, the ones it claims and resumes, its waiters. */
class HostCalls implements CallsHandle {
  private readonly leaseMs: number;
  private readonly retryMs: number;
  private readonly maxAttempts: number;
  private readonly waiters = new Map<string, Set<(done?: CarriedResult) => void>>();
  /** The task-backed calls this host polls, by call id: each runs until its task ends. */
  private readonly pollers = new Map<string, TaskPoller>();
  private closed = false;
  private working: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly host: CallsHost,
    private readonly options: DurableCallsOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    if (!(this.leaseMs > 0))
      throw new StoreError('invalid_options', 'leaseMs must be a number > 0');
    this.retryMs = options.retryMs ?? 5_000;
    this.maxAttempts = options.maxAttempts ?? 5;
    if (!(this.retryMs >= 0) || !(this.maxAttempts >= 1))
      throw new StoreError('invalid_options', 'retryMs must be ≥ 0 and maxAttempts ≥ 1');
  }

  private report(error: unknown): void {
    this.host.report(storeErrorOf(error));
  }

  /** Stores what came of a failed resume: due again later when it may pass, else failed. */
  private async failed(row: Row, error: unknown): Promise<void> {
    const { driver, instance, calls: callSql } = this.host;
    const callId = String(row.call_id);
    const { code, message } = error as { code?: unknown; message?: unknown };
    const stored = { code: String(code ?? 'error'), message: String(message ?? error) };
    // Nothing was sent, or the server never answered: the answers stay, the call is due again.
    if (passing(error) && Number(row.attempts) < this.maxAttempts) {
      await driver.query(callSql.retryLater, [callId, instance, this.retryMs]);
      // This host looks again then; any other host's poll may be first.
      const timer = setTimeout(
        () => void this.work().catch((failure: unknown) => this.report(failure)),
        // The due time retryLater set in SQL (doubled per attempt, at most an hour).
        Math.min(this.retryMs * 2 ** (Number(row.attempts) - 1), 3_600_000) + 50,
      );
      timer.unref?.();
      return;
    }
    await this.finish(callId, 'failed', null, stored, stored.code);
  }

  /**
   * running → complete or failed, fenced by this host's claim; in the same transaction the call's
   * open questions (a task's, never a modern call's) end with `reason`, for every inbox.
   */
  private async finish(
    callId: string,
    state: 'complete' | 'failed',
    result: unknown,
    error: unknown,
    reason: string,
  ): Promise<void> {
    const { driver, instance, calls: callSql } = this.host;
    await driver.transaction(async (tx) => {
      const finished = await tx.query(callSql.finishCall, [
        callId,
        instance,
        state,
        result === null ? null : JSON.stringify(result),
        error === null ? null : JSON.stringify(error),
      ]);
      if (finished.length > 0)
        await tx.query(callSql.withdrawQuestions, [callId, null, reason, this.host.keepAnswerData]);
    });
  }

  /**
   * Stores a resume's outcome: the result once, or the next round and its questions. Either way
   * the answers it sent are marked delivered in the same statement, fenced by the claim.
   */
  private async resumed(row: Row, outcome: DurableOutcome): Promise<void> {
    const { driver, instance, calls: callSql, keepAnswerData: keep } = this.host;
    const callId = String(row.call_id);
    if (outcome.status === 'complete') {
      const result = JSON.stringify(outcome.result);
      await driver.query(callSql.completeResumed, [callId, instance, result, keep]);
      return;
    }
    // A further round: its questions go back through the store, like the first ones. A retry the
    // server answered with a task is ready at once: a host claims it and polls the task.
    const next = outcome.suspension;
    await driver.transaction(async (tx) => {
      const kept = await tx.query(callSql.suspendAgain, [
        callId,
        instance,
        JSON.stringify(next),
        Number(row.round) + 1,
        !isTask(next) && next.requests.length > 0,
        keep,
      ]);
      if (kept.length > 0)
        await insertQuestions(
          tx,
          this.host.sql,
          String(row.scope),
          callId,
          instance,
          next.requests,
        );
    });
  }

  /**
   * The Answers a claimed call resumes with: from its ended questions, which the claim returned.
   * Should one of its Requests have no ended row there (the claim's snapshot predates a round
   * that ended since), they are read again, as they are now.
   */
  private async answersOf(row: Row, suspension: Suspension): Promise<Answer[]> {
    const claimed = Array.isArray(row.answers) ? (row.answers as Row[]) : [];
    let byId = new Map(claimed.map((question) => [String(question.id), question]));
    if (suspension.requests.some((request) => !byId.has(request.id))) {
      const ended = await this.host.driver.query(this.host.calls.callAnswers, [row.call_id]);
      byId = new Map(ended.map((question) => [String(question.id), question]));
    }
    return suspension.requests.map((request) => answerOf(request, byId.get(request.id)));
  }

  /**
   * Resumes one claimed call and records what came of it (fenced by the claim). A host that dies
   * after sending the retry leaves the claim to run out; the next host sends the same retry again:
   * the suspension and the answers are read from the same rows, so `requestState` and
   * `inputResponses` are the same bytes (at least once toward the server).
   */
  private async resumeClaimed(row: Row): Promise<void> {
    const { driver, instance, calls: callSql } = this.host;
    const callId = String(row.call_id);
    const suspension = row.suspension as Suspension;
    // The lease is renewed while the server works; a host that dies stops renewing it.
    const renew = setInterval(() => {
      driver
        .query(callSql.renewLease, [callId, instance, this.leaseMs])
        .catch((error: unknown) => this.report(error));
    }, this.leaseMs / 3);
    renew.unref?.();
    try {
      const answers = await this.answersOf(row, suspension);
      let outcome: DurableOutcome;
      try {
        const bridge = await this.options.clientFor(String(row.server_key), String(row.scope));
        outcome = await bridge.resume(suspension, answers);
      } catch (error) {
        return await this.failed(row, error);
      }
      await this.resumed(row, outcome);
    } finally {
      clearInterval(renew);
    }
  }

  /** Claims ready calls one at a time until none is left (SKIP LOCKED: hosts never wait on each other). */
  private async drain(): Promise<void> {
    const { driver, instance, calls: callSql } = this.host;
    do {
      this.again = false;
      for (;;) {
        if (this.closed) return;
        const [row] = await driver.query(callSql.claimCall, [instance, this.leaseMs]);
        if (!row) break;
        if (row.kind === 'task') this.startPolling(row);
        else await this.resumeClaimed(row).catch((error: unknown) => this.report(error));
      }
    } while (this.again);
  }

  /** Polls a claimed task beside the other claims (a task may run for hours). */
  private startPolling(row: Row): void {
    const callId = String(row.call_id);
    this.pollers.get(callId)?.stop();
    const poller = new TaskPoller(this.pollHost(), row);
    this.pollers.set(callId, poller);
    void poller
      .run()
      .catch((error: unknown) => this.report(error))
      .finally(() => {
        if (this.pollers.get(callId) === poller) this.pollers.delete(callId);
      });
  }

  /** What this host's pollers read and write, each write fenced by the claim. */
  private pollHost(): PollHost {
    const { driver, instance, calls: callSql, keepAnswerData: keep } = this.host;
    return {
      leaseMs: this.leaseMs,
      instance,
      clientFor: async (serverKey, scope) => this.options.clientFor(serverKey, scope),
      unsent: async (callId, task) => {
        if (task.requests.length === 0) return [];
        // Taken before they are sent: an answer whose wait ran out is given back only if untaken.
        const ids = JSON.stringify(task.requests.map((request) => request.id));
        const rows = await driver.query(callSql.takeUnsent, [callId, instance, ids]);
        const byId = new Map(rows.map((question) => [String(question.id), question]));
        return task.requests.flatMap((request) => {
          const row = byId.get(request.id);
          return row ? [{ seq: String(row.seq), answer: answerOf(request, row) }] : [];
        });
      },
      renew: async (callId) =>
        (await driver.query(callSql.renewLease, [callId, instance, this.leaseMs])).length > 0,
      replace: (row, version, prev, next, sent) =>
        driver.transaction(async (tx) => {
          const callId = String(row.call_id);
          const kept = await tx.query(callSql.replaceSuspension, [
            callId,
            instance,
            version,
            JSON.stringify(next),
          ]);
          if (kept.length === 0) return false;
          await tx.query(callSql.markSent, [callId, seqsOf(sent), keep]);
          const insert = (requests: Request[]) =>
            insertQuestions(tx, this.host.sql, String(row.scope), callId, instance, requests);
          await changeQuestions(tx, callSql, insert, { callId, prev, next, keep });
          return true;
        }),
      complete: async (row, outcome, sent) => {
        await driver.query(callSql.markSent, [String(row.call_id), seqsOf(sent), keep]);
        await this.finish(String(row.call_id), 'complete', outcome.result, null, 'completed');
      },
      failed: (row, error) => this.failed(row, error),
      report: (error) => this.report(error),
    };
  }

  work(): Promise<void> {
    if (this.options.work === false || this.closed) return Promise.resolve();
    if (this.working) {
      this.again = true;
      return this.working;
    }
    return (this.working = this.drain().finally(() => (this.working = undefined)));
  }

  async callTool(
    scope: string,
    serverKey: string,
    params: Parameters<DurableCalls['callTool']>[2],
  ): Promise<DurableCallStart> {
    if (this.closed) throw new StoreError('closed', 'Durable calls are closed');
    const { driver, instance, calls: callSql } = this.host;
    const bridge = await this.options.clientFor(serverKey, scope);
    const outcome = await bridge.callTool(params, { durable: true });
    const callId = randomUUID();
    if (outcome.status === 'complete')
      return { callId, status: 'complete', result: outcome.result };
    const suspension: Suspension | SavedTask = outcome.suspension;
    await driver.transaction(async (tx) => {
      if (isTask(suspension)) {
        await tx.query(callSql.insertTaskCall, [
          callId,
          scope,
          serverKey,
          JSON.stringify(suspension),
          instance,
        ]);
        return insertQuestions(tx, this.host.sql, scope, callId, instance, suspension.requests);
      }
      await tx.query(callSql.insertCall, [
        callId,
        scope,
        serverKey,
        JSON.stringify(outcome.suspension),
        outcome.suspension.round,
        instance,
        outcome.suspension.requests.length > 0,
      ]);
      await insertQuestions(tx, this.host.sql, scope, callId, instance, suspension.requests);
    });
    return { callId, status: 'waiting' };
  }

  /** Registered before the read, so a notice that lands in between is not lost; returns the wait. */
  private waitForNotice(callId: string): {
    woken: Promise<CarriedResult | undefined>;
    wake(done?: CarriedResult): void;
    stop(): void;
  } {
    let wake!: (done?: CarriedResult) => void;
    const woken = new Promise<CarriedResult | undefined>((resolve) => (wake = resolve));
    const set = this.waiters.get(callId) ?? new Set();
    set.add(wake);
    this.waiters.set(callId, set);
    const stop = (): void => {
      set.delete(wake);
      if (set.size === 0) this.waiters.delete(callId);
    };
    return { woken, wake, stop };
  }

  async result(
    callId: string,
    resultOptions: { signal?: AbortSignal } = {},
  ): Promise<Record<string, unknown>> {
    const { signal } = resultOptions;
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      if (this.closed) throw new StoreError('closed', 'Durable calls are closed');
      const notice = this.waitForNotice(callId);
      try {
        const [row] = await this.host.driver.query(this.host.calls.callState, [callId]);
        if (!row) throw new StoreError('call_failed', `No durable call ${callId}`);
        if (row.state === 'complete') return row.result as Record<string, unknown>;
        if (row.state === 'failed') {
          const details = row.error as Record<string, unknown>;
          throw new StoreError('call_failed', `Call ${callId} failed: ${String(details.message)}`, {
            details,
          });
        }
        const onAbort = (): void => notice.wake();
        signal?.addEventListener('abort', onAbort, { once: true });
        const done = await notice.woken;
        signal?.removeEventListener('abort', onAbort);
        // The `done` notice carried the stored result: no read of the row (else read it again).
        if (done) return done.result;
      } finally {
        notice.stop();
      }
    }
  }

  notice(callId: string, event: 'ready' | 'done', done?: CarriedResult): void {
    if (event === 'ready') {
      // A question of a task this host polls ended: its poller sends the answer.
      this.pollers.get(callId)?.notice();
      void this.work().catch((error: unknown) => this.report(error));
    } else for (const wake of [...(this.waiters.get(callId) ?? [])]) wake(done);
  }

  poll(): Promise<void> {
    for (const set of this.waiters.values()) for (const wake of [...set]) wake();
    for (const poller of this.pollers.values()) poller.notice();
    return this.work();
  }

  close(): void {
    this.closed = true;
    for (const poller of this.pollers.values()) poller.stop();
    for (const set of this.waiters.values()) for (const wake of set) wake();
  }

  /** The public face: methods without `this`, so a host may pass them around on their own. */
  calls(): DurableCalls {
    return {
      callTool: (scope, serverKey, params) => this.callTool(scope, serverKey, params),
      result: (callId, resultOptions) => this.result(callId, resultOptions),
      work: () => this.work(),
      close: () => this.close(),
    };
  }
}
