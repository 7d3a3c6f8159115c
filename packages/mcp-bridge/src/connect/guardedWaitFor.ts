/**
 * The host's waitFor behind the connection: a lost connection ends every open question at once.
 *
 * One abort listener per connection signal, however many questions are open, and a set of the open
 * ones: a listener per question on one signal would make Node warn past 10 and cost O(n²) to remove
 * (an EventTarget scans its list), where the set adds and deletes in O(1).
 */
import type { Answer, WaitFor } from '@waitfor/core';
import { linkedController, type SignalLike } from '@waitfor/runtime';

/** The Answer reason of a question whose connection was lost (a UI can show it). */
export const CONNECTION_LOST = 'connection_lost';

/** One open question: how to end it when its connection is lost. */
type Lose = (reason: unknown) => void;

/**
 * @internal Wrap `waitFor` so a question still open when `lost()` aborts ends with reason
 * `connection_lost` (the person's waitFor sees its signal abort with the same cause). `lost()` may
 * hand a new signal after a reconnection: each signal gets one listener, when first seen.
 */
export function guardWaitFor(waitFor: WaitFor, lost: () => SignalLike): WaitFor {
  const open = new Set<Lose>();
  let hooked: SignalLike | undefined;
  const hook = (connection: SignalLike) => {
    if (connection === hooked) return;
    hooked = connection;
    // Every open question belongs to this signal: those of an earlier one ended when it aborted,
    // and none opens while the current one is aborted (see below).
    connection.addEventListener(
      'abort',
      () => {
        for (const lose of [...open]) lose(connection.reason);
      },
      { once: true },
    );
  };
  return (request, context = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const connection = lost();
      const ended: Answer = { id: request.id, ok: false, reason: CONNECTION_LOST };
      // Lost already: the person is not asked.
      if (connection.aborted) return resolve(ended);
      hook(connection);
      // Linked to the question's own signal only: the connection reaches it through `open`.
      const scope = linkedController(context.signal);
      const lose: Lose = (reason) => {
        scope.abort(reason);
        resolve(ended);
      };
      open.add(lose);
      Promise.resolve(waitFor(request, { ...context, signal: scope.signal }))
        .then(resolve, reject)
        .finally(() => {
          open.delete(lose);
          scope.dispose();
        });
    });
}
