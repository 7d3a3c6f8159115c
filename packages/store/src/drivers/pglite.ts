import type { PGlite } from '@electric-sql/pglite';
import { StoreError, storeErrorOf } from '../storeError';
import type { Driver, Queryable } from './driver';
import { guarded } from './driver';

/**
 * The part of a PGlite the store uses: a `PGlite` is one. Declared here so that the store's types
 * do not pull in PGlite's (which need `@types/emscripten` under `skipLibCheck: false`).
 */
export interface PgliteDatabase {
  readonly closed: boolean;
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  close(): Promise<void>;
}

/** Options of pgliteDriver: a data directory, or a PGlite the host opened itself. */
export interface PgliteDriverOptions {
  /** Where PGlite keeps its files (one process per directory). Without it the database lives in memory. */
  dataDir?: string;
  /** A PGlite the host opened; the store then never closes it. */
  pglite?: PgliteDatabase;
}

// A closed PGlite says so in plain words; it is the embedded equivalent of a server that is gone.
const wrap = (error: unknown): Error =>
  /PGlite is closed/.test(String((error as Error | null)?.message))
    ? new StoreError('closed', 'The PGlite database is closed', { cause: error })
    : storeErrorOf(error);

const queryable = (db: Pick<PGlite, 'query'>): Queryable => ({
  query: (sql, params = []) =>
    guarded(async () => (await db.query(sql, [...params])).rows as Record<string, unknown>[], wrap),
});

/**
 * The embedded driver: PostgreSQL compiled to WebAssembly, in this process, nothing to start.
 * NOTIFY reaches the listeners of this one process only, so a fleet needs postgresDriver.
 */
export async function pgliteDriver(options: PgliteDriverOptions = {}): Promise<Driver> {
  // Loaded on demand: a host on PostgreSQL never loads the WebAssembly build.
  // A PGlite by its contract (PgliteDatabase is its shape, declared without PGlite's types).
  const db =
    (options.pglite as PGlite | undefined) ??
    (await guarded(async () => {
      const { PGlite } = await import('@electric-sql/pglite');
      return PGlite.create(options.dataDir === undefined ? {} : { dataDir: options.dataDir });
    }, wrap));
  return {
    ...queryable(db),
    transaction: (work) => guarded(() => db.transaction((tx) => work(queryable(tx))), wrap),
    async listen(channel, onMessage) {
      // One process, no connection to lose: `onResumed` is never needed.
      const stop = await guarded(() => db.listen(channel, onMessage), wrap);
      return () => guarded(() => (db.closed ? Promise.resolve() : stop()), wrap);
    },
    async close() {
      if (!options.pglite && !db.closed) await guarded(() => db.close(), wrap);
    },
  };
}
