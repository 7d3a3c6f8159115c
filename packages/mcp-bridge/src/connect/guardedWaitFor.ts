/**
 * The host's waitFor behind the connection: a lost connection ends every open question at once.
 *
 * A set of the open questions, ended by the connection itself (`lose`): no signal collects a
 * listener per question, which would make Node warn past 10 and cost O(n²) to remove (an
 * EventTarget scans its list), where the set adds and deletes in O(1).
 */
import type { Answer, WaitFor } from '@waitfor/core';
import { linkedController } from '@waitfor/runtime';

/** The Answer reason of a question whose connection was lost (a UI can show it). */
export const CONNECTION_LOST = 'connection_lost';

/** @internal The guarded waitFor, and the connection's two moves. */
export interface GuardedWaitFor {
  waitFor: WaitFor;
  /** The connection is lost: every open question ends `connection_lost` (its signal aborts with `reason`), and so does every new one until `restore`. */
  lose(reason: unknown): void;
  /** Connected again: new questions are asked. */
  restore(): void;
}

/**
 * @internal Wrap `waitFor` so a question still open when the connection is lost ends with reason
 * `connection_lost` (the person's waitFor sees its signal abort with the same cause).
 */
export function guardWaitFor(waitFor: WaitFor): GuardedWaitFor {
  const open = new Set<(reason: unknown) => void>();
  let lost = false;
  return {
    waitFor: (request, context = {}) =>
      new Promise<Answer>((resolve, reject) => {
        const ended: Answer = { id: request.id, ok: false, reason: CONNECTION_LOST };
        // Lost already: the person is not asked.
        if (lost) return resolve(ended);
        // Linked to the question's own signal only: the connection reaches it through `open`.
        const scope = linkedController(context.signal);
        const lose = (reason: unknown) => {
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
      }),
    lose(reason) {
      lost = true;
      // Forgotten now, not when each waitFor settles: one that ignores its abort holds nothing.
      for (const lose of open) lose(reason);
      open.clear();
    },
    restore() {
      lost = false;
    },
  };
}
