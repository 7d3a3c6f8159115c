import { PGlite } from '@electric-sql/pglite';
import type { Store, StoreOptions } from '../index';
import { createStore, pgliteDriver, postgresDriver } from '../index';
import type { PostgresServer } from './postgresServer';

/** Two hosts on one database, as a fleet sees it: what one does, the other hears of. */
export interface Fleet {
  a: Store;
  b: Store;
  /** Runs SQL on the shared database directly (to read what the store wrote). */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

let databases = 0;

/** How each driver makes two hosts on one fresh database. */
export const drivers = {
  /** One PGlite shared by two stores in this process (NOTIFY stays within a process). */
  async pglite(options: StoreOptions = {}, optionsB: StoreOptions = options): Promise<Fleet> {
    const db = await PGlite.create();
    const a = await createStore({
      ...options,
      driver: pgliteDriver({ pglite: db }),
      instance: 'a',
    });
    const b = await createStore({
      ...optionsB,
      driver: pgliteDriver({ pglite: db }),
      instance: 'b',
    });
    return {
      a,
      b,
      query: async (sql, params = []) =>
        (await db.query(sql, params)).rows as Record<string, unknown>[],
      async close() {
        await Promise.all([a.close(), b.close()]);
        await db.close();
      },
    };
  },
  /** Two stores with pools of their own on one PostgreSQL database. */
  async postgres(
    server: PostgresServer,
    options: StoreOptions = {},
    optionsB: StoreOptions = options,
  ): Promise<Fleet> {
    const name = `fleet_${process.pid}_${++databases}`;
    await server.createDatabase(name);
    const connectionString = server.url(name);
    const a = await createStore({
      ...options,
      driver: postgresDriver({ connectionString }),
      instance: 'a',
    });
    const b = await createStore({
      ...optionsB,
      driver: postgresDriver({ connectionString }),
      instance: 'b',
    });
    const { default: pg } = await import('pg');
    const direct = new pg.Pool({ connectionString, max: 2 });
    direct.on('error', () => {});
    return {
      a,
      b,
      query: async (sql, params = []) => (await direct.query(sql, params)).rows,
      async close() {
        await Promise.all([a.close(), b.close()]);
        await direct.end();
      },
    };
  },
};
