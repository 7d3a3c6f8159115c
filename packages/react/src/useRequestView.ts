'use client';
import { useCallback, useState, useSyncExternalStore } from 'react';
import type { Answer, Request } from '@waitfor/core';
import { useAnswer } from './useAnswer.js';
import { useRequest } from './useRequest.js';

/**
 * Where a view's Request stands: `open`, `answered` here by this view, or `closed` elsewhere
 * (another tab, a policy, an abort, expiry).
 */
export type RequestViewStatus = 'open' | 'answered' | 'closed';

/** The status of a view's Request and the one function the view settles it with. */
export interface RequestViewState {
  status: RequestViewStatus;
  /** Sends an Answer for this view's Request; returns whether it settled it. */
  settle(answer: Answer): boolean;
}

/** Whether a view settled its Request: a tiny store, read during render as the inbox is. */
function createFlag() {
  let value = false;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: boolean) {
      if (next === value) return;
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** Tracks whether a view's Request is still open, and whether this view was the one to settle it. */
export function useRequestView(request: Request): RequestViewState {
  const open = useRequest(request.id) !== undefined;
  const answers = useAnswer();
  // Not state: the inbox notifies React synchronously inside `answer`, and the render that follows
  // must already know who settled it. A store read like the inbox's, so that render reads both.
  const [answeredHere] = useState(createFlag);
  const answered = useSyncExternalStore(answeredHere.subscribe, answeredHere.get, answeredHere.get);
  const settle = useCallback(
    (answer: Answer) => {
      answeredHere.set(true);
      const settled = answers.answer(answer);
      if (!settled) answeredHere.set(false);
      return settled;
    },
    [answers, answeredHere],
  );
  const status: RequestViewStatus = open ? 'open' : answered ? 'answered' : 'closed';
  return { status, settle };
}
