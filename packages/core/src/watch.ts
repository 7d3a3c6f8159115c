import { cancel, expire } from './answers';
import { parseDateTime } from './dateTime';
import { schedule } from './timers';
import type { AbortSignalLike, Answer, Request } from './types';

// The two ways a wait ends without an answer, shared by boundWaitFor and the inbox.

/** Epoch ms of the Request's `expiresAt`, Infinity when it has none (NaN when it is malformed). */
export const expiryOf = (request: Request): number =>
  request.expiresAt === undefined ? Infinity : parseDateTime(request.expiresAt);

/** The Answer a wait has already come to before it starts: cancelled if aborted, expired if late. */
export const endedAnswer = (
  request: Request,
  signal: AbortSignalLike | undefined,
  deadline: number,
  now: () => number,
): Answer | undefined =>
  signal?.aborted
    ? cancel(request, signal.reason)
    : deadline <= now()
      ? expire(request)
      : undefined;

/**
 * Calls `end` with a cancelled Answer when `signal` aborts, or an expired one at `deadline`.
 * Returns the function that stops watching; call it once the wait is over, so nothing is left behind.
 */
export const watch = (
  request: Request,
  signal: AbortSignalLike | undefined,
  deadline: number,
  now: () => number,
  end: (answer: Answer) => void,
): (() => void) => {
  const onAbort = (): void => end(cancel(request, signal?.reason));
  const stopTimer =
    deadline < Infinity ? schedule(deadline - now(), () => end(expire(request))) : () => {};
  signal?.addEventListener('abort', onAbort);
  return () => {
    stopTimer();
    signal?.removeEventListener('abort', onAbort);
  };
};
