import { askAll } from '../round/askAll';
import type { AbortSignalLike, Answer, Request, WaitFor } from '../types';
import { askRequest } from './askRequest';

/** How a round is asked. */
export interface RoundOptions {
  signal?: AbortSignalLike | undefined;
  maxAttempts: number;
}

/**
 * Asks every Request of a round at once through the round engine (one abort fan-out; a question
 * that throws aborts the others) and returns their Answers under the same input keys.
 */
export async function askRound(
  bound: WaitFor,
  requests: Record<string, Request>,
  options: RoundOptions,
): Promise<Record<string, Answer>> {
  const keys = Object.keys(requests);
  const answers = await askAll(
    keys,
    (key, question) =>
      askRequest(bound, requests[key]!, {
        signal: question.signal,
        maxAttempts: options.maxAttempts,
      }),
    options.signal,
  );
  // Null prototype: a tool reading answers.constructor finds nothing it did not ask.
  const byKey = Object.create(null) as Record<string, Answer>;
  keys.forEach((key, index) => (byKey[key] = answers[index]!));
  return byKey;
}
