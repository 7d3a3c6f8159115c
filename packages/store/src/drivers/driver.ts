/** One row of a query result, keyed by column name. */
export type Row = Record<string, unknown>;

/** What runs SQL: the driver itself, or the open transaction inside `transaction`. */
export interface Queryable {
  /** Runs one statement with `$1…` parameters (never spliced into the text) and returns its rows. */
  query(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/**
 * The little a store needs from a database: the same SQL runs on both implementations (PGlite and
 * PostgreSQL through `pg`). Every method rejects with a StoreError.
 */
export interface Driver extends Queryable {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel`. After a lost connection the
   * driver listens again and calls `onResumed`, so the caller can reload what it may have missed.
   * Resolves with the function that stops listening.
   */
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onResumed: () => void,
  ): Promise<() => Promise<void>>;
  /** Releases what the driver opened itself (never a pool or database the host passed in). */
  close(): Promise<void>;
}

/** Runs `work`, turning what it throws into a StoreError with `wrap`. */
export async function guarded<T>(
  work: () => Promise<T>,
  wrap: (error: unknown) => Error,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw wrap(error);
  }
}
