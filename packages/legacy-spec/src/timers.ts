/**
 * Timers read from globalThis through a typed cast, so the main entry needs neither DOM nor Node
 * types and runs in browsers, Node and workers alike.
 */
type TimerHandle = unknown;

interface TimerHost {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The host's setTimeout and clearTimeout; call them as methods, so fake timers still apply. */
export const timers = globalThis as unknown as TimerHost;
