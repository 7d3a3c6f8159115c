// The one poller of a task-backed durable call: the host holding the call's lease watches the task
// through its bridge, sends the answers the fleet's inboxes stored, and saves each suspension the
// bridge returns in place of the one it read (fenced by the claim and the call's version).
import type { Answer, Request } from '@waitfor/core';
import type { AnySuspension, DurableOutcome, TaskSuspension } from '@waitfor/mcp-bridge';
import type { Queryable, Row } from '../drivers/driver';
import { StoreError } from '../storeError';
import type { DurableCaller } from './durableCalls';

/** A suspended task-backed call, as the bridge hands it back and the store saves it. */
export type SavedTask = TaskSuspension;

/** True for the suspension of a task-backed call. */
export const isTask = (suspension: AnySuspension): suspension is TaskSuspension =>
  (suspension as { kind?: unknown }).kind === 'task';

/** One stored answer of the call, ready to send: the row it came from and the Answer. */
export interface Unsent {
  seq: string;
  answer: Answer;
}

/** What a poller needs from the durable calls of its host. */
export interface PollHost {
  readonly leaseMs: number;
  readonly instance: string;
  clientFor(serverKey: string, scope: string): Promise<DurableCaller>;
  /**
   * Takes the stored answers not sent yet, for the open Requests of `task` only, to send them now
   * (none while this host's claim is gone).
   */
  unsent(callId: string, task: SavedTask): Promise<Unsent[]>;
  /** Keeps the claim; false once it is gone (taken over, or the call ended). */
  renew(callId: string): Promise<boolean>;
  /**
   * Saves `next` in place of version `version` in one transaction with its questions (new keys
   * asked, withdrawn keys ended) and the sent answers marked; false when the claim or the version
   * moved on (nothing changed).
   */
  replace(
    row: Row,
    version: number,
    prev: SavedTask,
    next: SavedTask,
    sent: Unsent[],
  ): Promise<boolean>;
  /** Stores the result once and ends the call's open questions (the task completed). */
  complete(
    row: Row,
    outcome: DurableOutcome & { status: 'complete' },
    sent: Unsent[],
  ): Promise<void>;
  /** What came of a failure: due again later when it may pass, else failed (questions ended). */
  failed(row: Row, error: unknown): Promise<void>;
  report(error: unknown): void;
}

/**
 * Polls one claimed task until it ends, this host stops, or its claim is gone. Answers go out as
 * they are stored (each `resume` sends the ones that match open keys); with none to send, `resume`
 * only watches, and an answer's notice interrupts the watch so it is sent at once.
 *
 * A 2025-11-25 task is never interrupted: its reference has no questions (nothing to send), and
 * its `resume` holds the one tasks/result whose pushed questions are open in the store inbox of
 * the call's scope (`clientFor(serverKey, scope)`); closing it would end them, and the server may
 * not ask again. Only this host stopping, or its claim going, ends that watch.
 */
export class TaskPoller {
  private readonly stopped = new AbortController();
  private wake: AbortController | undefined;
  private woken = false;

  constructor(
    private readonly host: PollHost,
    private readonly row: Row,
  ) {}

  /** A question of this call ended: its answer is sent now (an ongoing watch is interrupted). */
  notice(): void {
    this.woken = true;
    this.wake?.abort();
  }

  /** This host stops polling: the claim runs out and another host takes the task over. */
  stop(): void {
    this.stopped.abort(new StoreError('closed', 'Durable calls are closed'));
  }

  async run(): Promise<void> {
    const callId = String(this.row.call_id);
    // The lease is renewed while the task runs; a host that dies stops renewing it, and a poller
    // whose claim is gone (the host stalled past its lease) stops watching.
    const renew = setInterval(() => {
      this.host.renew(callId).then(
        (held) => held || this.stopped.abort(new StoreError('closed', 'The claim is gone')),
        (error: unknown) => this.host.report(error),
      );
    }, this.host.leaseMs / 3);
    renew.unref?.();
    try {
      let bridge: DurableCaller;
      try {
        bridge = await this.host.clientFor(String(this.row.server_key), String(this.row.scope));
      } catch (error) {
        return await this.host.failed(this.row, error);
      }
      await this.poll(bridge, this.row.suspension as SavedTask, Number(this.row.version));
    } finally {
      clearInterval(renew);
    }
  }

  private async poll(bridge: DurableCaller, saved: SavedTask, at: number): Promise<void> {
    let [task, version] = [saved, at];
    while (!this.stopped.signal.aborted) {
      this.woken = false;
      const unsent = await this.host.unsent(String(this.row.call_id), task);
      let outcome: DurableOutcome;
      try {
        outcome = await this.resume(bridge, task, unsent);
      } catch (error) {
        if (this.stopped.signal.aborted) return;
        // Interrupted while only watching: nothing was sent; the new answer goes out next.
        if (unsent.length === 0 && this.woken) continue;
        return await this.host.failed(this.row, error);
      }
      if (outcome.status === 'complete') return this.host.complete(this.row, outcome, unsent);
      if (!isTask(outcome.suspension))
        return this.host.failed(
          this.row,
          new StoreError('call_failed', 'A task-backed call resumed into a suspension of no task'),
        );
      const next = keepQuestions(task, outcome.suspension);
      if (!(await this.host.replace(this.row, version, task, next, unsent))) return;
      [task, version] = [next, version + 1];
    }
  }

  /** Sends the unsent answers (then waits for the task to change), or only watches it. */
  private resume(
    bridge: DurableCaller,
    task: SavedTask,
    unsent: Unsent[],
  ): Promise<DurableOutcome> {
    const answers = unsent.map(({ answer }) => answer);
    const resume = (signal: AbortSignal) => bridge.resume(task, answers, { signal });
    if (answers.length > 0 || task.revision === '2025-11-25') return resume(this.stopped.signal);
    this.wake = new AbortController();
    if (this.woken) this.wake.abort();
    const signal = AbortSignal.any([this.stopped.signal, this.wake.signal]);
    if (signal.aborted) return Promise.reject(signal.reason);
    return resume(signal);
  }
}

const keyOf = (request: Request): unknown =>
  (request.data?.origin as { inputKey?: unknown } | undefined)?.inputKey;

/**
 * The next suspension, each key still open with the same inputRequest keeping the Request it was
 * asked with (the bridge builds each suspension's Requests afresh, under new ids): the question
 * every inbox lists stays the one answered, and its answer matches the saved suspension.
 */
export function keepQuestions(prev: SavedTask, next: SavedTask): SavedTask {
  const asked = new Map(prev.requests.map((request) => [keyOf(request), request]));
  const same = (key: unknown): boolean =>
    typeof key === 'string' &&
    Object.hasOwn(prev.inputRequests, key) &&
    Object.hasOwn(next.inputRequests, key) &&
    JSON.stringify(prev.inputRequests[key]) === JSON.stringify(next.inputRequests[key]);
  const requests = next.requests.map((request) => {
    const key = keyOf(request);
    return same(key) ? (asked.get(key) ?? request) : request;
  });
  return { ...next, requests };
}

/** Inserts the questions of a task's new keys and ends those of its withdrawn keys. */
export async function changeQuestions(
  tx: Queryable,
  statements: { withdrawQuestions: string },
  insert: (requests: Request[]) => Promise<void>,
  change: { callId: string; prev: SavedTask; next: SavedTask; keep: boolean },
): Promise<void> {
  const { callId, prev, next, keep } = change;
  const known = new Set(prev.requests.map((request) => request.id));
  await insert(next.requests.filter((request) => !known.has(request.id)));
  // A key that left the open set while its question was open: answered elsewhere, or withdrawn.
  const open = JSON.stringify(next.requests.map((request) => request.id));
  await tx.query(statements.withdrawQuestions, [callId, open, 'withdrawn', keep]);
}
