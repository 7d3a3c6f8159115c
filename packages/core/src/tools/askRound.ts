import { createController as createAbortController } from '@waitfor/runtime';
import type { AbortSignalLike, Answer, Request, WaitFor } from '../types';
import { askRequest } from './askRequest';

/** How a round is asked. */
export interface RoundOptions {
  signal?: AbortSignalLike | undefined;
  maxAttempts: number;
}

/**
 * Asks every Request of a round at once (all start before any finishes) and returns their Answers
 * under the same input keys. The caller's abort reaches every question through one listener, so
 * the caller's signal never collects a listener per question; a question that throws aborts the
 * others before the error is passed on, so no wait is left open.
 */
export async function askRound(
  bound: WaitFor,
  requests: Record<string, Request>,
  options: RoundOptions,
): Promise<Record<string, Answer>> {
  const keys = Object.keys(requests);
  const questions = keys.map(createAbortController);
  const abortAll = (reason?: unknown) => {
    for (const question of questions) question.abort(reason);
  };
  const { signal } = options;
  const onAbort = () => abortAll(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    const answers = await Promise.all(
      keys.map((key, index) =>
        askRequest(bound, requests[key]!, {
          signal: questions[index]!.signal,
          maxAttempts: options.maxAttempts,
        }).catch((error: unknown) => {
          abortAll(error);
          throw error;
        }),
      ),
    );
    // Null prototype: a tool reading answers.constructor finds nothing it did not ask.
    const byKey = Object.create(null) as Record<string, Answer>;
    keys.forEach((key, index) => (byKey[key] = answers[index]!));
    return byKey;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
