/** What the inbox benchmarks (http inbox, store fleet) ask and wait for. */
import type { Request } from '@waitfor/core';

/** An approval question with id `id`, as a bench server would ask it. */
export const question = (id: string): Request => ({
  id,
  kind: 'approval',
  prompt: `May I book trip ${id}?`,
  data: { origin: { server: 'bench' } },
});

/** Resolves once `check` holds for `inbox`, tested after each of its changes. */
export const until = (
  inbox: { subscribe(listener: () => void): () => void },
  check: () => boolean,
): Promise<void> =>
  new Promise((resolve) => {
    if (check()) return resolve();
    const stop = inbox.subscribe(() => {
      if (!check()) return;
      stop();
      resolve();
    });
  });
