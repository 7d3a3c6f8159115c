import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_DELAY, schedule, scheduleUnref } from './index';

// Fake timers stand in for days of waiting; they replace globalThis.setTimeout, which the helpers
// read at call time.
describe.each([
  ['schedule', schedule],
  ['scheduleUnref', scheduleUnref],
])('%s', (_name, run) => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([2 ** 31, 2 ** 31 + 5, 3 * MAX_TIMER_DELAY + 1])(
    'waits out %s ms, past what one timer holds, without firing early',
    (delay) => {
      const callback = vi.fn();
      run(delay, callback);
      vi.advanceTimersByTime(delay - 1);
      expect(callback).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(callback).toHaveBeenCalledTimes(1);
    },
  );

  it('fires an ordinary delay once, on time', () => {
    const callback = vi.fn();
    run(1_000, callback);
    vi.advanceTimersByTime(999);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(callback).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it.each([Infinity, NaN])('arms no timer at all for %s', (delay) => {
    const callback = vi.fn();
    run(delay, callback);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(4 * MAX_TIMER_DELAY);
    expect(callback).not.toHaveBeenCalled();
  });

  it('runs a negative delay on the next turn, like 0', () => {
    const callback = vi.fn();
    run(-5, callback);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('cancels a chained wait in any of its steps', () => {
    const callback = vi.fn();
    const cancel = run(3 * MAX_TIMER_DELAY, callback);
    vi.advanceTimersByTime(MAX_TIMER_DELAY + 10);
    cancel();
    vi.advanceTimersByTime(4 * MAX_TIMER_DELAY);
    expect(callback).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('which timers keep a Node process alive', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['schedule', schedule, true],
    ['scheduleUnref', scheduleUnref, false],
  ] as const)('%s: hasRef() is %s', (_name, run, referenced) => {
    const made = vi.spyOn(globalThis, 'setTimeout');
    const cancel = run(60_000, () => undefined);
    const handle = made.mock.results[0]?.value as NodeJS.Timeout;
    expect(handle.hasRef()).toBe(referenced);
    cancel();
  });
});
