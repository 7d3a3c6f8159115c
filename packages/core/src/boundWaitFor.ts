import { createAbortController } from './abortController';
import { cancel } from './answers';
import { fail } from './check';
import { parseAnswer } from './parseAnswer';
import type { Answer, WaitFor } from './types';
import { endedAnswer, expiryOf, watch } from './watch';

/** Options of boundWaitFor. */
export interface BoundWaitForOptions {
  /** Longest time, in ms, a Request may stay unanswered; it then ends as expired. */
  timeoutMs?: number;
  /** The clock that `expiresAt` is compared with (default Date.now). */
  now?: () => number;
}

/**
 * Wraps a waitFor so that it always resolves and never runs past its time: `expiresAt` or
 * `timeoutMs` end in an expired Answer, an aborted signal in a cancelled one, and a waitFor that
 * throws, rejects or answers another id (`answer_mismatch`) in a cancelled Answer whose cause is the
 * error. When the bound ends the wait first, the inner waitFor's signal is aborted so it drops the
 * question.
 */
export function boundWaitFor(waitFor: WaitFor, options: BoundWaitForOptions = {}): WaitFor {
  const { timeoutMs = Infinity, now = Date.now } = options;
  if (!(timeoutMs >= 0)) fail('invalid_option', 'timeoutMs', 'timeoutMs is invalid');
  return (request, context = {}) =>
    new Promise<Answer>((resolve) => {
      const { signal } = context;
      const deadline = Math.min(now() + timeoutMs, expiryOf(request));
      const ended = endedAnswer(request, signal, deadline, now);
      if (ended) return resolve(ended);
      const inner = createAbortController();
      // Only the first call counts: resolve ignores later ones, and stopping twice is harmless.
      const finish = (answer: Answer): void => {
        stop();
        resolve(answer);
      };
      const stop = watch(request, signal, deadline, now, (answer) => {
        // The bound ended the wait first: tell the inner waitFor, so it drops the question.
        inner.abort(signal?.reason);
        finish(answer);
      });
      new Promise<Answer>((settle) =>
        settle(waitFor(request, { ...context, signal: inner.signal })),
      )
        .then((answer) => {
          if (parseAnswer(answer).id !== request.id) {
            fail('answer_mismatch', 'id', `Answer for ${answer.id}`);
          }
          finish(answer);
        })
        .catch((error: unknown) => finish(cancel(request, error)));
      // Not even a malformed Request (no object, no id) may reject: it ends cancelled with the error.
    }).catch((error: unknown) => cancel(String((request as { id?: unknown } | null)?.id), error));
}
