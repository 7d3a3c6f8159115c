/**
 * Timers read from globalThis through a typed cast, so the main entry needs neither DOM nor Node
 * types and runs in browsers, Node and workers alike.
 */
type TimerHandle = unknown;

interface TimerHost {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

const timers = globalThis as unknown as TimerHost;

/** Run `callback` after `ms` milliseconds; returns a function that cancels it. */
export function after(ms: number, callback: () => void): () => void {
  const handle = timers.setTimeout(callback, ms);
  return () => timers.clearTimeout(handle);
}
