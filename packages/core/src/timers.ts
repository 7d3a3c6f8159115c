// Timers are read from globalThis at call time: the main entry has neither DOM nor Node types, and
// test fake timers that replace globalThis.setTimeout must still apply.
interface TimerHost {
  setTimeout(callback: () => void, delay: number): unknown;
  clearTimeout(handle: unknown): void;
}

const host = globalThis as unknown as TimerHost;

// setTimeout fires at once for delays past 2^31-1 ms (about 24.8 days); longer waits are chained.
const longestDelay = 2_147_483_647;

/**
 * Runs `callback` after `delay` ms (any length; never for Infinity, so no timer keeps a process
 * alive); returns a function that cancels it.
 */
export const schedule = (delay: number, callback: () => void): (() => void) => {
  let handle: unknown;
  const step = (remaining: number): void => {
    handle = host.setTimeout(
      remaining > longestDelay ? () => step(remaining - longestDelay) : callback,
      Math.min(remaining, longestDelay),
    );
  };
  if (delay < Infinity) step(delay); // a negative delay runs on the next turn, like 0
  return () => host.clearTimeout(handle);
};
