/** A set of listeners of one kind. */
export interface Listeners<T> {
  /** Start listening; returns the function that stops. */
  add(listener: (value: T) => void): () => void;
  /** Call every listener; a throwing one is isolated, so the others and the caller still run. */
  emit(value: T): void;
}

/** Create an empty set of listeners. */
export function createListeners<T = void>(): Listeners<T> {
  const set = new Set<(value: T) => void>();
  return {
    add(listener) {
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    emit(value) {
      // A copy: a listener may stop listening (or add another) while it runs.
      for (const listener of [...set]) {
        try {
          listener(value);
        } catch {
          // A host listener's failure must not stop other listeners or the caller.
        }
      }
    },
  };
}
