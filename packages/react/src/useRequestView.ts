'use client';
import { useCallback, useRef } from 'react';
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

/** Tracks whether a view's Request is still open, and whether this view was the one to settle it. */
export function useRequestView(request: Request): RequestViewState {
  const open = useRequest(request.id) !== undefined;
  const answers = useAnswer();
  // A ref, not state: the inbox notifies React synchronously inside `answer`, and the render that
  // follows must already know who settled it.
  const answeredHere = useRef(false);
  const settle = useCallback(
    (answer: Answer) => {
      answeredHere.current = true;
      const settled = answers.answer(answer);
      if (!settled) answeredHere.current = false;
      return settled;
    },
    [answers],
  );
  const status: RequestViewStatus = open ? 'open' : answeredHere.current ? 'answered' : 'closed';
  return { status, settle };
}
