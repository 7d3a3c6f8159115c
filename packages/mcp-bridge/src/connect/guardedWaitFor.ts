/** The host's waitFor behind the connection: a lost connection ends every open question at once. */
import type { Answer, WaitFor } from '@waitfor/core';
import { linkedController, type SignalLike } from '@waitfor/runtime';

/** The Answer reason of a question whose connection was lost (a UI can show it). */
export const CONNECTION_LOST = 'connection_lost';

/**
 * @internal Wrap `waitFor` so a question still open when `lost()` aborts ends with reason
 * `connection_lost` (the person's waitFor sees its signal abort with the same cause).
 */
export function guardWaitFor(waitFor: WaitFor, lost: () => SignalLike): WaitFor {
  return (request, context = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const connection = lost();
      const onLost = () => resolve({ id: request.id, ok: false, reason: CONNECTION_LOST });
      // Lost already: the person is not asked.
      if (connection.aborted) return onLost();
      const scope = linkedController(context.signal, connection);
      // No `once`: the listener is removed when the wait settles, whichever way.
      connection.addEventListener('abort', onLost);
      Promise.resolve(waitFor(request, { ...context, signal: scope.signal }))
        .then(resolve, reject)
        .finally(() => {
          connection.removeEventListener('abort', onLost);
          scope.dispose();
        });
    });
}
