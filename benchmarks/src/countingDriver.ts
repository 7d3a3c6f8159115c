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
  /** Statements by their opening words (statementLabel). */
  byLabel: Record<string, number>;
}

/** A statement named by its first eight words, e.g. "UPDATE public.waitfor_calls AS call SET state = …". */
export const statementLabel = (sql: string): string => {
  const words = sql.replace(/\s+/g, ' ').trim().split(' ');
  return words.length > 8 ? `${words.slice(0, 8).join(' ')} …` : words.join(' ');
};

const empty = (): StatementCount => ({ statements: 0, ms: 0, transactions: 0, byLabel: {} });

/** A driver and the count of what went through it. */
export interface CountingDriver {
  driver: Driver;
  /** The count since the last reset (a copy). */
  read(): StatementCount;
  reset(): void;
}

/** Wraps `inner`: every query, inside a transaction or not, is counted and timed. */
export function countingDriver(inner: Driver): CountingDriver {
  let count = empty();
  const counted = (target: Queryable): Queryable['query'] => {
    return async (sql, params) => {
      const start = performance.now();
      try {
        return await target.query(sql, params);
      } finally {
        count.statements++;
        count.ms += performance.now() - start;
        const label = statementLabel(sql);
        count.byLabel[label] = (count.byLabel[label] ?? 0) + 1;
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
    read: () => ({ ...count, byLabel: { ...count.byLabel } }),
    reset: () => {
      count = empty();
    },
  };
}

/**
 * The statements of `counts` by label, averaged over `units` (answers, trips), most run first;
 * those run less than once in 200 units are left out.
 */
export function statementsPer(counts: readonly StatementCount[], units: number): string {
  const totals = new Map<string, number>();
  for (const count of counts)
    for (const [label, times] of Object.entries(count.byLabel))
      totals.set(label, (totals.get(label) ?? 0) + times);
  return [...totals]
    .filter(([, times]) => times / units >= 0.005)
    .sort((left, right) => right[1] - left[1])
    .map(([label, times]) => `\`${label}\` ×${(times / units).toFixed(2)}`)
    .join(', ');
}
