import { cancel, expire } from './answers';
import { parseDateTime } from './dateTime';
import { schedule } from '@waitfor/runtime';
import type { AbortSignalLike, Answer, Request } from './types';

// The two ways a wait ends without an answer, shared by boundWaitFor and the inbox.

/** Epoch ms of a parsed Request's `expiresAt`, Infinity when it has none. */
export const expiryOf = (request: Request): number =>
  request.expiresAt ? parseDateTime(request.expiresAt) : Infinity;

/**
 * Watches a parsed Request: `end` gets a cancelled Answer when `signal` aborts, an expired one at
 * `expiresAt` or `timeoutMs` from now, whichever comes first. When the wait has already come to
 * an Answer (aborted or late), `ended` gets it at once, nothing is watched and undefined is
 * returned; else the function that stops watching, to call once the wait is over.
 */
export const watch = (
  request: Request,
  signal: AbortSignalLike | undefined,
  now: () => number,
  timeoutMs: number,
  ended: (answer: Answer) => void,
  end: (answer: Answer) => void,
): (() => void) | void => {
  const remaining = Math.min(timeoutMs, expiryOf(request) - now());
  if (signal?.aborted) return ended(cancel(request, signal.reason));
  // Not `<= 0`: a clock that gives NaN must end the wait, not leave it without a timer.
  if (!(remaining > 0)) return ended(expire(request));
  const onAbort = (): void => end(cancel(request, signal!.reason));
  const stopTimer = schedule(remaining, () => end(expire(request)));
  signal?.addEventListener('abort', onAbort);
  return () => {
    stopTimer();
    signal?.removeEventListener('abort', onAbort);
  };
};
