import { cancel, expire } from './answers';
import { fail } from './check';
import { parseAnswer } from './parseAnswer';
import { parseRequest } from './parseRequest';
import type { Answer, Request, WaitFor } from './types';
import { endedAnswer, expiryOf, watch } from './watch';

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
  expiresAt: number;
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
      const expiresAt = expiryOf(request);
      const ended = endedAnswer(request, context.signal, expiresAt, now);
      if (ended) return resolve(ended);
      const entry: Entry = {
        request,
        expiresAt,
        settle(answer) {
          if (open.get(id) !== entry) return;
          open.delete(id);
          stop();
          resolve(answer);
          changed();
        },
      };
      const stop = watch(request, context.signal, expiresAt, now, entry.settle);
      open.set(id, entry);
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
      const answer = parseAnswer(value);
      const entry = open.get(answer.id);
      if (entry === undefined) return false;
      // A late answer must not look delivered: the Request ends as expired and the caller learns false.
      if (entry.expiresAt <= now()) {
        entry.settle(expire(entry.request));
        return false;
      }
      entry.settle(value);
      return true;
    },
    cancel(id, cause) {
      const entry = open.get(id);
      entry?.settle(cancel(entry.request, cause));
      return entry !== undefined;
    },
    get: (id) => open.get(id)?.request,
  };
}
