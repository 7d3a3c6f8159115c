import { createController } from '@waitfor/runtime';
import { cancel } from './answers';
import { nonEmpty, reject } from './check';
import { answerTo } from './parseAnswer';
import { parseRequest } from './parseRequest';
import type { Answer, WaitFor } from './types';
import { watch } from './watch';

/** Options of boundWaitFor. */
export interface BoundWaitForOptions {
  /** Longest time, in ms, a Request may stay unanswered; it then ends as expired. */
  timeoutMs?: number;
  /** The clock that `expiresAt` is compared with (default Date.now). */
  now?: () => number;
}

/**
 * Wraps a waitFor so that it always resolves and never runs past its time: `expiresAt` or
 * `timeoutMs` end in an expired Answer, an aborted signal in a cancelled one, and a malformed Request
 * (`invalid_request`, never asked) or a waitFor that throws, rejects or answers another id
 * (`answer_mismatch`) in a cancelled Answer whose cause is the error. When the bound ends the wait
 * first, the inner waitFor's signal is aborted so it drops the question.
 */
export function boundWaitFor(waitFor: WaitFor, options: BoundWaitForOptions = {}): WaitFor {
  const { timeoutMs = Infinity, now = Date.now } = options;
  if (!(timeoutMs >= 0)) reject('invalid_options', 'options', 'timeoutMs', timeoutMs);
  return (request, context = {}) =>
    new Promise<Answer>((resolve) => {
      // A malformed Request (a bad expiresAt would give no deadline at all) is not asked: it ends
      // cancelled with the invalid_request error, below.
      parseRequest(request);
      const { signal } = context;
      const inner = createController();
      const stop = watch(request, signal, now, timeoutMs, resolve, (answer) => {
        // The bound ended the wait first: tell the inner waitFor, so it drops the question.
        inner.abort(signal?.reason);
        finish(answer);
      });
      if (!stop) return;
      // Only the first call counts: resolve ignores later ones, and stopping twice is harmless.
      const finish = (answer: Answer): void => {
        stop();
        resolve(answer);
      };
      // async: a waitFor that throws synchronously ends like one that rejects.
      const ask = async (): Promise<Answer> =>
        answerTo(request, await waitFor(request, { ...context, signal: inner.signal }));
      ask().then(finish, (error: unknown) => finish(cancel(request, error)));
    }).catch((error: unknown) => {
      // Not even a malformed Request may reject: it ends cancelled with the error. The Answer
      // keeps the Request's id when that is usable, so it stays a well-formed Answer.
      const id = (request as { id?: unknown } | null)?.id;
      return cancel(nonEmpty(id) ? id : 'invalid', error);
    });
}
