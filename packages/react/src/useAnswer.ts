'use client';
import { useMemo } from 'react';
import { accept, cancel, decline } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import { useInbox } from './WaitforProvider.js';

/** Functions that settle Requests of the inbox; each returns whether it settled anything. */
export interface AnswerFunctions {
  /** Settles with a ready-made Answer (first answer wins). */
  answer(answer: Answer): boolean;
  /** Settles with `{ok: true}` and the given data. */
  accept(request: Request | string, data?: Record<string, unknown>): boolean;
  /** Settles with `{ok: false, reason: "declined"}`: the person said no. */
  decline(request: Request | string): boolean;
  /** Settles with `{ok: false, reason: "cancelled"}`: the person dismissed the question. */
  cancel(request: Request | string): boolean;
}

/** Answer functions bound to the provider's inbox; the same object for the same inbox. */
export function useAnswer(): AnswerFunctions {
  const inbox = useInbox();
  return useMemo(
    () => ({
      answer: (answer) => inbox.answer(answer),
      accept: (request, data) => inbox.answer(accept(request, data)),
      decline: (request) => inbox.answer(decline(request)),
      cancel: (request) => inbox.answer(cancel(request)),
    }),
    [inbox],
  );
}
