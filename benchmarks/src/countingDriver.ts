/**
 * A store Driver that counts the statements a host runs and the time they take, wrapped around a
 * real one (the store's public Driver interface): the store-queue benchmark reads it to say where
 * the time of an answer goes.
 */
import type { Driver, Queryable } from '@waitfor/store';

/**
 * Since the last reset: the statements run, the milliseconds from sending each until its rows,
 * and the transactions (each also sends a BEGIN and a COMMIT, not counted as statements).
 */
export interface StatementCount {
  statements: number;
  ms: number;
  transactions: number;
}

/** A driver and the count of what went through it. */
export interface CountingDriver {
  driver: Driver;
  /** The count since the last reset (a copy). */
  read(): StatementCount;
  reset(): void;
}

/** Wraps `inner`: every query, inside a transaction or not, is counted and timed. */
export function countingDriver(inner: Driver): CountingDriver {
  let count: StatementCount = { statements: 0, ms: 0, transactions: 0 };
  const counted = (target: Queryable): Queryable['query'] => {
    return async (sql, params) => {
      const start = performance.now();
      try {
        return await target.query(sql, params);
      } finally {
        count.statements++;
        count.ms += performance.now() - start;
      }
    };
  };
  const driver: Driver = {
    query: counted(inner),
    transaction: (work) => {
      count.transactions++;
      return inner.transaction((tx) => work({ query: counted(tx) }));
    },
    listen: (channel, onMessage, onResumed) => inner.listen(channel, onMessage, onResumed),
    close: () => inner.close(),
  };
  return {
    driver,
    read: () => ({ ...count }),
    reset: () => {
      count = { statements: 0, ms: 0, transactions: 0 };
    },
  };
}
