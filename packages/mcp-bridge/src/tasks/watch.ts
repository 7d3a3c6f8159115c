/**
 * Watching one task: the poll loop (tasks/get at the server's bounded pollInterval) and the
 * de-duplication of its inputRequests keys, shared by every task route.
 *
 * Invariants (SEP-2663: keys are unique for a task's lifetime, outstanding ones repeat on every poll):
 * - a key is fresh (asked) once: the book remembers every key open or answered, within
 *   `limits.taskKeys`; an answered key the server still lists is never asked again, and one still
 *   listed more than STALE_POLLS polls after its answer was acknowledged is a broken server
 *   ('invalid_params', never a hang);
 * - an open key the status no longer lists (or a status that is not input_required) is withdrawn;
 * - a status bringing fresh keys counts as a round against `maxRounds`;
 * - at most `limits.taskOpenKeys` keys are open at once; the wait between polls is the server's
 *   pollInterval clamped to [MIN_POLL, MAX_POLL] (DEFAULT_POLL when it names none), on the global
 *   timers (`schedule`), so fake timers drive it in tests.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { isAborted, schedule } from '@waitfor/runtime';
import { abortedError, BridgeError } from '../bridgeError';
import type { BridgeLimits } from '../limits';
import type { InputRequest, TaskStatus } from '../types';

/** The shortest wait between polls, whatever the server asks (ms). */
export const MIN_POLL = 50;
/** The longest wait between polls, whatever the server asks (ms). */
export const MAX_POLL = 30_000;
/** The wait between polls when the server names none (ms). */
export const DEFAULT_POLL = 1_000;
/** Polls after an acknowledged answer during which the server may still list its key. */
export const STALE_POLLS = 3;

/** The server's pollInterval, bounded (undefined when it sent no usable one). */
export const boundedPoll = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value)
    ? Math.min(MAX_POLL, Math.max(MIN_POLL, value))
    : undefined;

/** Whether a status is final. */
export const isTerminal = (status: TaskStatus): boolean =>
  status.status === 'completed' || status.status === 'failed' || status.status === 'cancelled';

/** What one status changed in a task's keys. */
export interface KeyChange {
  /** Keys never seen before: to be asked. */
  fresh: Record<string, InputRequest>;
  /** Keys that were open and are listed no more. */
  withdrawn: string[];
}

/** The keys of one task: open (seen, unanswered) and answered, bounded. */
export class KeyBook {
  /** Open keys, as the server sent them. */
  readonly open = new Map<string, InputRequest>();
  /** Answered keys, with the poll count at which the answer was acknowledged. */
  readonly #answered = new Map<string, number>();
  #polls = 0;
  readonly #limits: BridgeLimits;

  constructor(limits: BridgeLimits, answered: Iterable<string> = []) {
    this.#limits = limits;
    for (const key of answered) this.#remember(key);
  }

  /** The keys answered so far (in the order answered). */
  answered(): string[] {
    return [...this.#answered.keys()];
  }

  isAnswered(key: string): boolean {
    return this.#answered.has(key);
  }

  /** Record `key` answered (acknowledged by the server): it leaves the open keys for good. */
  answer(key: string): void {
    this.open.delete(key);
    this.#remember(key);
  }

  #remember(key: string): void {
    if (!this.#answered.has(key) && this.#answered.size >= this.#limits.taskKeys)
      throw new BridgeError(
        'invalid_params',
        `The task used more than ${this.#limits.taskKeys} inputRequests keys`,
      );
    this.#answered.set(key, this.#polls);
  }

  /** Read one status: its fresh and withdrawn keys; throws 'invalid_params' past a bound. */
  read(status: TaskStatus): KeyChange {
    this.#polls += 1;
    const listed = status.status === 'input_required' ? (status.inputRequests ?? {}) : {};
    const fresh: Record<string, InputRequest> = {};
    let freshCount = 0;
    for (const [key, entry] of Object.entries(listed)) {
      const acked = this.#answered.get(key);
      if (acked !== undefined) {
        if (this.#polls - acked > STALE_POLLS)
          throw new BridgeError(
            'invalid_params',
            `inputRequests["${key}"] is still asked after it was answered`,
          );
      } else if (!this.open.has(key)) {
        // defineProperty: a key such as "__proto__" stays an own key, as the server sent it.
        Object.defineProperty(fresh, key, { value: entry, enumerable: true, writable: true });
        freshCount += 1;
      }
    }
    const withdrawn = [...this.open.keys()].filter((key) => !Object.hasOwn(listed, key));
    for (const key of withdrawn) this.open.delete(key);
    if (this.open.size + freshCount > this.#limits.taskOpenKeys)
      throw new BridgeError(
        'invalid_params',
        `The task has more than ${this.#limits.taskOpenKeys} open inputRequests`,
      );
    if (this.open.size + freshCount + this.#answered.size > this.#limits.taskKeys)
      throw new BridgeError(
        'invalid_params',
        `The task used more than ${this.#limits.taskKeys} inputRequests keys`,
      );
    for (const [key, entry] of Object.entries(fresh)) this.open.set(key, entry);
    return { fresh, withdrawn };
  }
}

/** Wait `delay` ms, or reject 'aborted' once `signal` aborts. */
export function sleep(delay: number, signal: AbortSignalLike): Promise<void> {
  return new Promise((resolve, reject) => {
    if (isAborted(signal)) return reject(abortedError(signal.reason));
    const onAbort = () => {
      cancel();
      reject(abortedError(signal.reason));
    };
    const cancel = schedule(delay, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    signal.addEventListener('abort', onAbort);
  });
}

/** One watch of a task. */
export interface Watch {
  readonly taskId: string;
  /** tasks/get, checked. */
  readonly poll: (signal: AbortSignalLike) => Promise<TaskStatus>;
  readonly book: KeyBook;
  /** Statuses that brought fresh keys so far. */
  round: number;
  readonly maxRounds: number;
  readonly signal: AbortSignalLike;
}

/**
 * Poll `watch`'s task from `first` (or a fresh tasks/get) until it ends or `onStatus` says stop
 * (true); resolves with that status. Each status is read into the book first (fresh keys counted
 * as a round), then handed on with its change.
 */
export async function pollTask(
  watch: Watch,
  first: TaskStatus | undefined,
  onStatus: (status: TaskStatus, change: KeyChange) => Promise<boolean> | boolean,
): Promise<TaskStatus> {
  let status = first;
  let interval = first?.pollInterval ?? DEFAULT_POLL;
  for (;;) {
    if (isAborted(watch.signal)) throw abortedError(watch.signal.reason);
    status ??= await watch.poll(watch.signal);
    interval = status.pollInterval ?? interval;
    const change = watch.book.read(status);
    if (Object.keys(change.fresh).length > 0 && ++watch.round > watch.maxRounds)
      throw new BridgeError(
        'rounds_exceeded',
        `Task ${watch.taskId} still asked new questions after ${watch.maxRounds} rounds`,
        { lastResult: status },
      );
    if ((await onStatus(status, change)) || isTerminal(status)) return status;
    await sleep(interval, watch.signal);
    status = undefined;
  }
}
