import { cancel, expire } from './answers';
import { fail } from './check';
import { parseAnswer } from './parseAnswer';
import { parseRequest } from './parseRequest';
import type { Answer, Request, WaitFor } from './types';
import { expiryOf, watch } from './watch';

/** A framework-free store of open Requests that a UI lists and answers. */
export interface Inbox {
  /** Adds the Request to the inbox and resolves when it is answered, cancelled, aborted or expired. */
  readonly waitFor: WaitFor;
  /** The open Requests, oldest first: the same array until something changes (then a new one; never mutated). */
  getSnapshot(): readonly Request[];
  /**
   * Calls `listener` after every change; returns the function that unsubscribes it. A listener must
   * not throw: its error escapes from the call that made the change.
   */
  subscribe(listener: () => void): () => void;
  /**
   * Settles the Request the Answer names. True when this Answer settled it (first answer wins);
   * false for an unknown or settled id, and for an answer after `expiresAt` (the Request then ends
   * as expired). Throws `invalid_answer` for a malformed Answer.
   */
  answer(answer: Answer): boolean;
  /** Settles an open Request as cancelled. True when it was open. */
  cancel(id: string, cause?: unknown): boolean;
  /** The open Request with this id, if any. */
  get(id: string): Request | undefined;
}

/** Options of createInbox. */
export interface InboxOptions {
  /** The clock that `expiresAt` is compared with (default Date.now). */
  now?: () => number;
}

interface Entry {
  request: Request;
  settle(answer: Answer): void;
}

/**
 * Creates an inbox. Its `waitFor` rejects only for a malformed Request (`invalid_request`) or an id
 * that is already open (`duplicate_request`); wrap it in boundWaitFor for a waitFor that never rejects.
 */
export function createInbox(options: InboxOptions = {}): Inbox {
  const now = options.now ?? Date.now;
  const open = new Map<string, Entry>();
  const listeners = new Set<() => void>();
  let snapshot: readonly Request[] | undefined;

  const changed = (): void => {
    snapshot = undefined;
    // A copy: a listener may unsubscribe (itself or another) while being notified.
    for (const listener of [...listeners]) listener();
  };

  const waitFor: WaitFor = (request, context = {}) =>
    new Promise<Answer>((resolve) => {
      parseRequest(request);
      const { id } = request;
      if (open.has(id)) fail('duplicate_request', 'id', `Request ${id} is open`);
      const settle = (answer: Answer): void => {
        // Only an open entry settles: its watch is stopped here, so nothing calls it again.
        if (!open.delete(id)) return;
        stop!();
        resolve(answer);
        changed();
      };
      // Already aborted or late: resolved at once, never listed.
      const stop = watch(request, context.signal, now, Infinity, resolve, settle);
      if (!stop) return;
      open.set(id, { request, settle });
      changed();
    });

  return {
    waitFor,
    getSnapshot: () => (snapshot ??= [...open.values()].map((entry) => entry.request)),
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    answer(value) {
      const entry = open.get(parseAnswer(value).id);
      // A late answer must not look delivered: the Request ends as expired and the caller learns false.
      const onTime = entry && expiryOf(entry.request) > now();
      entry?.settle(onTime ? value : expire(entry.request));
      return !!onTime;
    },
    cancel(id, cause) {
      const entry = open.get(id);
      entry?.settle(cancel(entry.request, cause));
      return !!entry;
    },
    get: (id) => open.get(id)?.request,
  };
}
