'use client';
import { useMemo, useSyncExternalStore } from 'react';
import type { Ended, Inbox } from '@waitfor/core';
import type { AnswerFailure } from './answerFailure.js';
import type { Localization } from './localization.js';
import { useInbox } from './WaitforProvider.js';

const isThenable = (value: unknown): value is PromiseLike<Ended | undefined> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === 'function';

/**
 * A store read of `inbox.ended(id)` (core's `Inbox.ended`, where the inbox has it). An inbox that
 * answers at once is read on every look, as its snapshot is; one that answers with a promise (a
 * store's: a database read) is asked once, and its answer shown when it comes.
 */
function selectEnded(inbox: Inbox, id: string) {
  const listeners = new Set<() => void>();
  let pending = false;
  let value: Ended | undefined;
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      const stop = inbox.subscribe(listener);
      return () => {
        listeners.delete(listener);
        stop();
      };
    },
    get(): Ended | undefined {
      if (pending) return value;
      const read = inbox.ended?.(id);
      if (!isThenable(read)) return (value = read);
      pending = true;
      read.then(
        (ended) => {
          value = ended;
          for (const listener of [...listeners]) listener();
        },
        () => {},
      );
      return value;
    },
  };
}

const none = (): undefined => undefined;
const noSubscription = () => () => {};

/**
 * How a closed question ended, as far as this page knows: this page's refused answer (a 409 says
 * `ended` and `answeredBy`, where the server's inbox could), else the inbox's own `ended(id)`;
 * undefined while `closed` is false, or when nobody can say.
 */
export function useEnded(id: string, closed: boolean, failure: AnswerFailure | undefined) {
  const inbox = useInbox();
  const lost = failure?.code === 'conflict';
  const store = useMemo(
    () => (closed && !lost ? selectEnded(inbox, id) : undefined),
    [inbox, id, closed, lost],
  );
  const ended = useSyncExternalStore(store?.subscribe ?? noSubscription, store?.get ?? none, none);
  if (lost) return { lost, reason: failure.ended, answeredBy: failure.answeredBy };
  return { lost, reason: ended?.reason, answeredBy: ended?.answeredBy };
}

/**
 * The words of the closed note: answered elsewhere (by whom, where known), expired, or the asker
 * no longer needs it. A lost answer whose server gave no reason is the old "answered elsewhere"
 * (a 409 is an answer that came second); a question that closed without a failure and without a
 * known reason only says it is no longer open — it may have expired or been withdrawn.
 */
export function closedNote(
  text: Localization['text'],
  { lost, reason, answeredBy }: ReturnType<typeof useEnded>,
): string {
  if (reason === 'expired') return text('closedExpired');
  if (reason === 'cancelled') return text('closedCancelled');
  if (reason === undefined && !lost) return text('closedEnded');
  return answeredBy === undefined ? text('closed') : text('closedBy', { who: answeredBy });
}
