// Timers are read from globalThis at call time: no DOM or Node types are needed, and test fake
// timers that replace globalThis.setTimeout still apply.
interface TimerHost {
  setTimeout(callback: () => void, delay: number): unknown;
  clearTimeout(handle: unknown): void;
}

const host = globalThis as unknown as TimerHost;

/** The longest delay one JavaScript timer holds (2^31 - 1 ms, about 24.8 days): longer ones fire at once. */
export const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * Runs `callback` after `delay` ms, of any length (longer than one timer holds: chained); never for
 * Infinity or NaN, so no timer keeps a process alive. With `unref`, in Node the timer alone does not
 * keep the process alive either (a grace period). Returns a function that cancels it.
 */
export const schedule = (
  delay: number,
  callback: () => void,
  { unref = false }: { unref?: boolean } = {},
): (() => void) => {
  let handle: { unref?(): void } | undefined;
  const step = (remaining: number): void => {
    handle = host.setTimeout(
      remaining > MAX_TIMER_DELAY ? () => step(remaining - MAX_TIMER_DELAY) : callback,
      Math.min(remaining, MAX_TIMER_DELAY),
    ) as { unref?(): void };
    if (unref) handle.unref?.();
  };
  if (delay < Infinity) step(delay); // a negative delay runs on the next turn, like 0
  return () => host.clearTimeout(handle);
};

/** As `schedule`, but in Node the timer alone does not keep the process alive (a grace period). */
export const scheduleUnref = (delay: number, callback: () => void): (() => void) =>
  schedule(delay, callback, { unref: true });
