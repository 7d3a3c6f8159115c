import { controllerBatch } from '@waitfor/runtime';
import type { AbortSignalLike } from '../types';

/** What each question of a round is handed besides its item. */
export interface RoundQuestion {
  /** Aborted when the round is: the caller's signal aborted, or another question failed or ended it. */
  signal: AbortSignalLike;
  /** Ends the whole round: every other question's signal aborts with `reason`. */
  abortRound(reason: unknown): void;
}

/** A lone question's `abortRound`: there is no other question to abort. */
const ignoreAbort = () => {};

/**
 * Asks every item of a round at once (all start before any finishes) and resolves with their
 * results in order. Each question has its own signal; the caller's abort and the round's end reach
 * them all through ONE listener, so no signal collects a listener per question (Node warns past
 * 10). A question that throws aborts the others before the error is passed on, so no wait is left
 * open.
 */
export async function askAll<Item, Result>(
  items: readonly Item[],
  ask: (item: Item, question: RoundQuestion, index: number) => Promise<Result>,
  signal?: AbortSignalLike,
): Promise<Result[]> {
  // A lone question has no others to abort: it is asked under the caller's own signal (the common
  // round, one question, needs no controller of its own).
  if (items.length === 1 && signal !== undefined)
    return [await ask(items[0]!, { signal, abortRound: ignoreAbort }, 0)];
  const [round, questions] = controllerBatch(signal, items);
  const abortRound = (reason: unknown) => round.abort(reason);
  try {
    return await Promise.all(
      items.map(async (item, index) => {
        try {
          return await ask(item, { signal: questions[index]!.signal, abortRound }, index);
        } catch (error) {
          round.abort(error);
          throw error;
        }
      }),
    );
  } finally {
    // Unhooked from the caller's signal, the round cannot abort any more.
    round.dispose();
  }
}
