/**
 * The test's clock for tests against real servers: timers and Date are faked (vitest), sockets stay
 * real, so time passes only where a test says and no fixed sleep decides an outcome.
 */
import { vi } from 'vitest';

/** Fakes setTimeout, clearTimeout and Date; undo with `vi.useRealTimers()` (in an afterEach). */
export const useTestClock = (): void => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
};

/**
 * Runs the test's clock in steps of `step` ms until `promise` settles, letting real I/O (HTTP round
 * trips) through between steps; at most `limit` ms of test time. Returns `promise`.
 */
export async function runClockUntilSettled<T>(
  promise: Promise<T>,
  step = 100,
  limit = 60_000,
): Promise<T> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  promise.then(done, done);
  for (let elapsed = 0; !settled && elapsed < limit; elapsed += step) {
    await vi.advanceTimersByTimeAsync(step);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return promise;
}
