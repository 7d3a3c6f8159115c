import { createListeners, createRecentMemory } from '@waitfor/runtime';
import { cancel, expire } from './answers';
import { fail } from './check';
import { parseAnswer } from './parseAnswer';
import { parseRequest } from './parseRequest';
import type { Answer, Request, WaitFor } from './types';
import { expiryOf, watch } from './watch';
import { listenerReport, type WaitforError } from './waitforError';

/**
 * How a question that is no longer open ended, as its inbox remembers it: `answered` (a person or a
 * view answered it, declines included; `answeredBy` names who, where the inbox knows), `expired`,
 * or `cancelled` (the asker no longer needs it: aborted, cancelled, its call or host gone). `at` is
 * when, in epoch ms.
 */
export interface Ended {
  reason: 'answered' | 'expired' | 'cancelled';
  answeredBy?: string;
  at: number;
}

/** A framework-free store of open Requests that a UI lists and answers. */
export interface Inbox {
  /** Adds the Request to the inbox and resolves when it is answered, cancelled, aborted or expired. */
  readonly waitFor: WaitFor;
  /** The open Requests, oldest first: the same array until something changes (then a new one; never mutated). */
  getSnapshot(): readonly Request[];
  /**
   * Calls `listener` after every change; returns the function that unsubscribes it. A listener that
   * throws stops neither the other listeners nor the change: its error is reported (`onError`).
   */
  subscribe(listener: () => void): () => void;
  /**
   * Settles the Request the Answer names. True when this Answer settled it (first answer wins);
   * false for an unknown or settled id, and for an answer after `expiresAt` (the Request then ends
   * as expired). Throws `invalid_answer` for a malformed Answer.
   */
  answer(answer: Answer): boolean;
  /**
   * Answers and resolves with the final word, the same contract for every inbox (this one, a
   * store's, a remote one): true when this Answer won (first answer wins) and reached the asker;
   * false when the question was already answered, ended, unknown or late. Rejects with
   * `invalid_answer` for a malformed Answer. Here it settles at once, as `answer` does; an inbox
   * whose questions live elsewhere resolves once that place has decided.
   */
  submit(answer: Answer): Promise<boolean>;
  /** Settles an open Request as cancelled. True when it was open. */
  cancel(id: string, cause?: unknown): boolean;
  /** The open Request with this id, if any. */
  get(id: string): Request | undefined;
  /**
   * Optional: how the question `id` ended, while the inbox remembers it; undefined while it is open
   * (or open again) and for an id it does not know. An inbox whose questions live elsewhere may
   * resolve it with one read of that place (a store's). The same object until the question changes.
   */
  ended?(id: string): Ended | undefined | Promise<Ended | undefined>;
}

/** Options of createInbox. */
export interface InboxOptions {
  /** The clock that `expiresAt` is compared with (default Date.now). */
  now?: () => number;
  /**
   * Receives a WaitforError `listener_failed` (what the listener threw as `cause`) for each
   * subscribed listener that throws; by default the platform's `reportError`, or `console.error`.
   */
  onError?: (error: WaitforError) => void;
}

/** What createInbox returns: an Inbox whose `ended` answers at once, from memory. */
export interface MemoryInbox extends Inbox {
  /**
   * How `id` ended, remembered for the last 1,024 questions that ended and at most 10 minutes (by
   * the inbox's `now`), whichever comes first; undefined while it is open or once forgotten.
   */
  ended(id: string): Ended | undefined;
}

interface Entry {
  request: Request;
  settle(answer: Answer, reason: Ended['reason']): void;
}

// What the watch's own endings mean: an abort is the asker's, a timer is expiry.
const watchReason = (answer: Answer): Ended['reason'] =>
  answer.reason === 'expired' ? 'expired' : 'cancelled';

/**
 * Creates an inbox. Its `waitFor` rejects only for a malformed Request (`invalid_request`) or an id
 * that is already open (`duplicate_request`); wrap it in boundWaitFor for a waitFor that never rejects.
 */
export function createInbox(options: InboxOptions = {}): MemoryInbox {
  const now = options.now ?? Date.now;
  const open = new Map<string, Entry>();
  const endedIds = createRecentMemory<Ended>({}, now);
  const listeners = createListeners(listenerReport(options.onError));
  let snapshot: readonly Request[] | undefined;

  const changed = (): void => {
    snapshot = undefined;
    listeners.emit();
  };

  const waitFor: WaitFor = (request, context = {}) =>
    new Promise<Answer>((resolve) => {
      parseRequest(request);
      const { id } = request;
      if (open.has(id)) fail('duplicate_request', 'id', `Request ${id} is open`);
      const settle = (answer: Answer, reason: Ended['reason']): void => {
        // Only an open entry settles: its watch is stopped here, so nothing calls it again.
        if (!open.delete(id)) return;
        stop!();
        endedIds.set(id, { reason, at: now() });
        resolve(answer);
        changed();
      };
      // Already aborted or late: resolved at once, never listed.
      const stop = watch(request, context.signal, now, Infinity, resolve, (answer) =>
        settle(answer, watchReason(answer)),
      );
      if (!stop) return;
      endedIds.delete(id);
      open.set(id, { request, settle });
      changed();
    });

  const answer = (value: Answer): boolean => {
    const entry = open.get(parseAnswer(value).id);
    // A late answer must not look delivered: the Request ends as expired and the caller learns false.
    const onTime = entry && expiryOf(entry.request) > now();
    if (onTime) entry.settle(value, 'answered');
    else entry?.settle(expire(entry.request), 'expired');
    return !!onTime;
  };

  return {
    waitFor,
    getSnapshot: () => (snapshot ??= [...open.values()].map((entry) => entry.request)),
    subscribe: listeners.add,
    answer,
    submit: async (value) => answer(value),
    cancel(id, cause) {
      const entry = open.get(id);
      entry?.settle(cancel(entry.request, cause), 'cancelled');
      return !!entry;
    },
    get: (id) => open.get(id)?.request,
    ended: (id) => (open.has(id) ? undefined : endedIds.get(id)),
  };
}
