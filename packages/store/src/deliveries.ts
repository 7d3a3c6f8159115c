import { StoreError } from './storeError';

interface Waiter {
  settle(delivered: boolean): void;
  fail(error: unknown): void;
}

/**
 * The answers given through one inbox whose asker has not read them yet, by row. `submit` resolves
 * true only once the asking host has read the answer (its `delivered` notice, or a reload that
 * finds the row delivered) and false once the row is closed unread (its asker is gone).
 */
export class Deliveries {
  private readonly waiting = new Map<string, Set<Waiter>>();

  /**
   * Starts waiting for row `seq` to be delivered (true) or closed unread (false), before the answer
   * is even sent: the asker's `delivered` notice can arrive before the answer's own reply does (the
   * database sends notices as soon as the answer commits). `cancel` stops waiting (the answer lost),
   * as does `signal`.
   */
  expect(seq: string, signal?: AbortSignal): { delivered: Promise<boolean>; cancel(): void } {
    let cancel = (): void => {};
    const delivered = this.wait(seq, signal, (stop) => (cancel = stop));
    // A cancelled or aborted wait nobody awaits must not be an unhandled rejection.
    delivered.catch(() => {});
    return { delivered, cancel };
  }

  private wait(
    seq: string,
    signal: AbortSignal | undefined,
    onStop: (stop: () => void) => void,
  ): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const set = this.waiting.get(seq) ?? new Set<Waiter>();
      const done = (): void => {
        set.delete(waiter);
        if (set.size === 0 && this.waiting.get(seq) === set) this.waiting.delete(seq);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        settle: (delivered) => {
          done();
          resolve(delivered);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      const onAbort = (): void => waiter.fail(signal!.reason);
      onStop(() => {
        done();
        resolve(false);
      });
      set.add(waiter);
      this.waiting.set(seq, set);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The rows someone is waiting on. */
  pending(): string[] {
    return [...this.waiting.keys()];
  }

  has(seq: string): boolean {
    return this.waiting.has(seq);
  }

  /** Row `seq` was read by its asker (true) or closed unread (false). */
  settle(seq: string, delivered: boolean): void {
    for (const waiter of [...(this.waiting.get(seq) ?? [])]) waiter.settle(delivered);
  }

  /** The inbox closed: nobody here learns the outcome any more. */
  close(cause: StoreError): void {
    const error = new StoreError(
      'closed',
      'The inbox closed before the asker read the answer; it may still be delivered',
      { cause },
    );
    for (const set of [...this.waiting.values()]) for (const waiter of [...set]) waiter.fail(error);
  }
}
