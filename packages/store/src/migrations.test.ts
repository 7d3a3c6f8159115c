import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import { createStore, postgresDriver, schemaVersion, StoreError } from './index';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.destroy();
});

it('migrates once when many hosts start at the same moment', async () => {
  await server.createDatabase('together');
  const connectionString = server.url('together');
  const stores = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      createStore({
        driver: postgresDriver({ connectionString, max: 2 }),
        instance: `h${i}`,
        pollMs: 0,
      }),
    ),
  );
  const { default: pg } = await import('pg');
  const direct = new pg.Client({ connectionString });
  await direct.connect();
  const { rows } = await direct.query('SELECT version FROM waitfor_migrations ORDER BY version');
  expect(rows.map((row) => row.version)).toEqual(
    Array.from({ length: schemaVersion }, (_, i) => i + 1),
  );
  // Started again on a migrated database: nothing to do, nothing doubled.
  const again = await createStore({ driver: postgresDriver({ connectionString }), pollMs: 0 });
  expect((await direct.query('SELECT count(*)::int AS n FROM waitfor_migrations')).rows).toEqual([
    { n: schemaVersion },
  ]);
  // A database migrated by a newer store is refused rather than misread.
  await direct.query('INSERT INTO waitfor_migrations (version) VALUES ($1)', [schemaVersion + 1]);
  const refused = await createStore({
    driver: postgresDriver({ connectionString }),
    pollMs: 0,
  }).catch((error: unknown) => error);
  expect(StoreError.isInstance(refused)).toBe(true);
  expect(refused).toMatchObject({ code: 'migration_failed' });
  await direct.end();
  await Promise.all([...stores, again].map((store) => store.close()));
});
