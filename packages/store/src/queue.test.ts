/**
 * The queue's housekeeping on a real PostgreSQL: a sweep announces thousands of ended questions in
 * a bounded number of notices, one host sweeps at a time, ended calls are deleted after retention,
 * and two stores in two schemas of one database never see each other.
 */
import { accept } from '@waitfor/core';
import type { Client } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import { createStore, migrationScript, postgresDriver } from './index';
import type { PostgresDriverOptions } from './index';
import { rowNotices } from './sql';

let server: PostgresServer;
let databases = 0;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.destroy();
});

async function database(): Promise<{ connectionString: string; look: Client }> {
  const name = `queue_${++databases}`;
  await server.createDatabase(name);
  const connectionString = server.url(name);
  const { default: pg } = await import('pg');
  const look = new pg.Client({ connectionString });
  await look.connect();
  return { connectionString, look };
}

it('announces a sweep of 2,500 expired questions in two scopes with one notice per scope, and every inbox follows', async () => {
  const { connectionString, look } = await database();
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const store = await createStore({
    driver: postgresDriver({ connectionString }),
    pollMs: 0,
    now: () => clock,
  });
  try {
    const [red, blue] = [await store.inbox('red'), await store.inbox('blue')];
    const expiresAt = new Date(clock + 60_000).toISOString();
    const waits = Array.from({ length: 2_500 }, (_, i) =>
      (i % 2 ? red : blue).waitFor({ id: `q${i}`, kind: 'question', prompt: 'Soon?', expiresAt }),
    );
    await expect
      .poll(() => red.getSnapshot().length + blue.getSnapshot().length, { timeout: 60_000 })
      .toBe(2_500);
    const notices: string[] = [];
    await look.query('LISTEN waitfor_store');
    look.on('notification', (message) => notices.push(message.payload ?? ''));
    clock += 120_000;
    await store.sweep();
    const outcomes = await Promise.all(waits);
    expect(new Set(outcomes.map((answer) => answer.reason))).toEqual(new Set(['expired']));
    expect(red.getSnapshot()).toEqual([]);
    expect(blue.getSnapshot()).toEqual([]);
    // Batches of 1,000: three statements, each announcing once per scope (never 2,500 notices).
    await expect.poll(() => notices.length).toBeGreaterThan(0);
    const sweepNotices = notices.filter((payload) => payload.includes('"changed"'));
    expect(sweepNotices.length).toBeLessThanOrEqual(6);
    expect(notices.filter((payload) => payload.includes('"end"')).length).toBeLessThanOrEqual(
      rowNotices,
    );
  } finally {
    await store.close();
    await look.end();
  }
});

it('lets one host sweep at a time: a second sweep while the first holds the lock ends nothing', async () => {
  const { connectionString, look } = await database();
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const store = await createStore({
    driver: postgresDriver({ connectionString }),
    pollMs: 0,
    now: () => clock,
  });
  try {
    const inbox = await store.inbox('ops');
    const expiresAt = new Date(clock + 60_000).toISOString();
    const waiting = inbox.waitFor({ id: 'late', kind: 'question', prompt: 'Now?', expiresAt });
    await expect.poll(() => inbox.getSnapshot().length).toBe(1);
    clock += 120_000;
    // Another host is sweeping: it holds the lock in its open transaction.
    await look.query('BEGIN');
    await look.query(`SELECT pg_advisory_xact_lock(${0x77616975}, hashtext('public'))`);
    await store.sweep();
    expect((await look.query(`SELECT state FROM waitfor_questions`)).rows).toEqual([
      { state: 'open' },
    ]);
    await look.query('COMMIT');
    await store.sweep();
    expect(await waiting).toMatchObject({ id: 'late', ok: false, reason: 'expired' });
  } finally {
    await store.close();
    await look.end();
  }
});

it('deletes ended calls after the retention time, and keeps calls still waiting', async () => {
  const { connectionString, look } = await database();
  const store = await createStore({
    driver: postgresDriver({ connectionString }),
    pollMs: 0,
    retainMs: 60_000,
  });
  try {
    await look.query(`INSERT INTO waitfor_calls (call_id, scope, server_key, state, created_by, ended_at)
      VALUES ('old', 's', 'k', 'complete', 'h', now() - interval '2 minutes'),
        ('recent', 's', 'k', 'failed', 'h', now()),
        ('waiting', 's', 'k', 'waiting', 'h', NULL)`);
    await store.sweep();
    const { rows } = await look.query('SELECT call_id FROM waitfor_calls ORDER BY call_id');
    expect(rows.map((row) => row.call_id)).toEqual(['recent', 'waiting']);
  } finally {
    await store.close();
    await look.end();
  }
});

it('keeps two stores in two schemas of one database apart, each in its own tables and channel', async () => {
  const { connectionString, look } = await database();
  const open = (schema: string) =>
    createStore({ driver: postgresDriver({ connectionString }), schema, pollMs: 0 });
  const [billing, support] = [await open('billing'), await open('support')];
  try {
    const [a, b] = [await billing.inbox('ada'), await support.inbox('ada')];
    const waiting = a.waitFor({ id: 'same-id', kind: 'question', prompt: 'Billing?' });
    await expect.poll(() => a.getSnapshot().length).toBe(1);
    // Same scope, same id, other schema: not seen, not answerable, no clash.
    const other = b.waitFor({ id: 'same-id', kind: 'question', prompt: 'Support?' });
    await expect.poll(() => b.getSnapshot().map((request) => request.prompt)).toEqual(['Support?']);
    expect(a.getSnapshot().map((request) => request.prompt)).toEqual(['Billing?']);
    expect(await b.submit(accept('same-id', { from: 'support' }))).toBe(true);
    expect(await other).toEqual(accept('same-id', { from: 'support' }));
    expect(a.get('same-id')?.prompt).toBe('Billing?');
    expect(await a.submit(accept('same-id'))).toBe(true);
    expect(await waiting).toEqual(accept('same-id'));
    const { rows } = await look.query(
      `SELECT table_schema, count(*)::int AS n FROM information_schema.tables
       WHERE table_name LIKE 'waitfor_%' GROUP BY table_schema ORDER BY table_schema`,
    );
    expect(rows).toEqual([
      { table_schema: 'billing', n: 4 },
      { table_schema: 'support', n: 4 },
    ]);
  } finally {
    await Promise.all([billing.close(), support.close()]);
    await look.end();
  }
});

it('prints the whole schema as one script a DBA can run by hand; the store then finds nothing to do', async () => {
  const { connectionString, look } = await database();
  try {
    const script = migrationScript({ schema: 'hand_made' });
    expect(script).toContain('CREATE TABLE hand_made.waitfor_questions');
    await look.query(script);
    const store = await createStore({
      driver: postgresDriver({ connectionString }),
      schema: 'hand_made',
      pollMs: 0,
    });
    const inbox = await store.inbox('ops');
    const waiting = inbox.waitFor({ id: 'q', kind: 'question', prompt: 'Works?' });
    await expect.poll(() => inbox.getSnapshot().length).toBe(1);
    expect(await inbox.submit(accept('q'))).toBe(true);
    expect(await waiting).toEqual(accept('q'));
    await store.close();
  } finally {
    await look.end();
  }
});

it("runs on a host's own pg Pool (typed by the store's PostgresPool, without @types/pg in its types) and leaves it open", async () => {
  const { connectionString, look } = await database();
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString, max: 3 });
  pool.on('error', () => {});
  const options: PostgresDriverOptions = { pool };
  const store = await createStore({ driver: postgresDriver(options), pollMs: 0 });
  const inbox = await store.inbox('ops');
  const waiting = inbox.waitFor({ id: 'q', kind: 'question', prompt: 'Own pool?' });
  await expect.poll(() => inbox.getSnapshot().length).toBe(1);
  expect(await inbox.submit(accept('q'))).toBe(true);
  expect(await waiting).toEqual(accept('q'));
  await store.close();
  expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  await pool.end();
  await look.end();
});
