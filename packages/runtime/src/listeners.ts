/** A set of listeners of one kind. */
export interface Listeners<T> {
  /**
   * Start listening; returns the function that stops. Each call is a subscription of its own: the
   * same function added twice is called twice, and each stop ends only its own (as React expects).
   */
  add(listener: (value: T) => void): () => void;
  /**
   * Call every listener; one that throws is isolated (the others and the caller still run) and its
   * error goes to the set's `report`.
   */
  emit(value: T): void;
}

/** Where a listener's error goes when its owner names no place: the platform's own channel. */
export function reportUncaught(error: unknown): void {
  const global = globalThis as {
    reportError?: (error: unknown) => void;
    console?: { error(...data: unknown[]): void };
  };
  // Browsers, Deno and Bun report it as an uncaught error (the console, window's 'error' event)
  // without stopping anything; Node has no reportError, and its console is the next best place.
  if (typeof global.reportError === 'function') global.reportError(error);
  else global.console?.error(error);
}

/**
 * Create an empty set of listeners. `report` receives what a throwing listener threw (default
 * `reportUncaught`); if `report` itself throws, that is dropped: a broken reporter must not break
 * the change that is being announced.
 */
export function createListeners<T = void>(
  report: (error: unknown) => void = reportUncaught,
): Listeners<T> {
  // One entry per subscription, so the same function subscribed twice is two subscriptions.
  const entries = new Set<{ listener: (value: T) => void }>();
  return {
    add(listener) {
      const entry = { listener };
      entries.add(entry);
      return () => {
        entries.delete(entry);
      };
    },
    emit(value) {
      // A copy: a listener may stop listening (or add another) while it runs.
      for (const { listener } of [...entries]) {
        try {
          listener(value);
        } catch (error) {
          try {
            report(error);
          } catch {
            // See above: the reporter's own failure stops nothing.
          }
        }
      }
    },
  };
}
