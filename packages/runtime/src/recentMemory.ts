/** How long a RecentMemory keeps entries: at most `maxEntries`, each for at most `maxAgeMs`. */
export interface RecentLimits {
  /** Entries kept at most (default 1,024); past it the oldest is dropped. */
  maxEntries?: number;
  /** Milliseconds an entry is kept at most (default 10 minutes), by the memory's `now`. */
  maxAgeMs?: number;
}

/**
 * A bounded memory of what happened lately, by key: the one bounded memory of the packages (core's
 * inbox remembers the questions that ended, the http feed the ids that left it, the http remote
 * inbox how its questions ended, the store how its questions ended or their rows). Whichever bound
 * comes first drops an entry; nothing is kept forever.
 */
export interface RecentMemory<Value> {
  /** The value kept for `key`, or undefined when none was kept or it is older than `maxAgeMs`. */
  get(key: string): Value | undefined;
  /** Keeps `value` for `key` as the newest entry (a key set again starts its age again). */
  set(key: string, value: Value): void;
  /** Forgets `key`. */
  delete(key: string): void;
}

/** The defaults of a RecentMemory's limits. */
export const recentLimits = { maxEntries: 1024, maxAgeMs: 10 * 60_000 } as const;

/** Creates a RecentMemory; `now` (default Date.now) is the clock its ages are read with. */
export function createRecentMemory<Value>(
  limits: RecentLimits = {},
  now: () => number = () => Date.now(),
): RecentMemory<Value> {
  const maxEntries = limits.maxEntries ?? recentLimits.maxEntries;
  const maxAgeMs = limits.maxAgeMs ?? recentLimits.maxAgeMs;
  // Insertion order is age order: the oldest entries are first, so pruning stops at a fresh one.
  const entries = new Map<string, { value: Value; at: number }>();
  // Not `age >= maxAgeMs` alone: a clock that gives NaN must not keep an entry forever.
  const stale = (at: number, time: number): boolean => !(time - at < maxAgeMs);

  const prune = (time: number): void => {
    for (const [key, entry] of entries) {
      if (entries.size <= maxEntries && !stale(entry.at, time)) return;
      entries.delete(key);
    }
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (!stale(entry.at, now())) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key, value) {
      const time = now();
      entries.delete(key);
      entries.set(key, { value, at: time });
      prune(time);
    },
    delete(key) {
      entries.delete(key);
    },
  };
}
