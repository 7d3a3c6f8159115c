/**
 * A database outage longer than the lease, on a real PostgreSQL stopped and started again: the
 * hosts' heartbeats are fake intervals (they fire only when the test says), so the first sweep after
 * the restart runs before any heartbeat — the moment an old store took a living host for dead.
 */
import { accept } from '@waitfor/core';
import type { Answer } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import type { Store } from './index';
import { createStore, postgresDriver } from './index';

let server: PostgresServer;
const stores: Store[] = [];
let database = 0;
beforeAll(async () => {
  server = await startPostgres();
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(stores.splice(0).map((store) => store.close().catch(() => {})));
});
afterAll(async () => {
  await server?.destroy();
});

const leaseMs = 1_500;

/** Hosts a and b on a fresh database; `reconnectMs` is how soon a hears notices again after a drop. */
async function twoHosts(reconnectMs = { a: 100, b: 100 }) {
  const name = `outage_${++database}`;
  await server.createDatabase(name);
  const connectionString = server.url(name);
  const open = async (instance: 'a' | 'b') => {
    const store = await createStore({
      driver: postgresDriver({ connectionString, reconnectMs: reconnectMs[instance] }),
      instance,
      leaseMs,
      pollMs: 0,
    });
    stores.push(store);
    return store;
  };
  const [a, b] = [await open('a'), await open('b')];
  const { default: pg } = await import('pg');
  const look = async (text: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return (await client.query(text, params)).rows;
    } finally {
      await client.end();
    }
  };
  return { a, b, look };
}

const leaseOf = async (look: (text: string) => Promise<Record<string, unknown>[]>) =>
  Object.fromEntries(
    (
      await look(
        `SELECT instance, extract(epoch FROM lease_until - now()) * 1000 AS ms FROM waitfor_instances`,
      )
    ).map((row) => [row.instance, Number(row.ms)]),
  );

/** Stops the database for longer than the lease and the grace after it, then starts it again. */
async function outage(): Promise<void> {
  await server.stop();
  await new Promise((resolve) => setTimeout(resolve, 2 * leaseMs + 500));
  await server.start();
}

it('renews its lease as soon as its connection is back after an outage, so no sweep takes it for gone', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const { a, b, look } = await twoHosts();
  const inboxA = await a.inbox('shared');
  const inboxB = await b.inbox('shared');
  const waiting = inboxA.waitFor({ id: 'live', kind: 'question', prompt: 'Still there?' });
  await expect.poll(() => inboxB.get('live')?.prompt).toBe('Still there?');
  await outage();
  // No heartbeat fired (fake intervals): only the reconnect renewed A's lease.
  await expect.poll(async () => (await leaseOf(look)).a, { timeout: 20_000 }).toBeGreaterThan(0);
  await b.sweep();
  expect(await look(`SELECT state FROM waitfor_questions WHERE id = 'live'`)).toEqual([
    { state: 'open' },
  ]);
  await inboxB.refresh();
  expect(await inboxB.submit(accept('live', { here: true }))).toBe(true);
  expect(await waiting).toEqual(accept('live', { here: true }));
});

it('closes nothing in the first sweep after an outage longer than the lease, before a living host could renew', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  // A hears nothing for a minute after the drop: the sweep of B comes first.
  const { a, b, look } = await twoHosts({ a: 60_000, b: 100 });
  const inboxA = await a.inbox('shared');
  const inboxB = await b.inbox('shared');
  const received: Answer[] = [];
  const waiting = inboxA
    .waitFor({ id: 'live', kind: 'question', prompt: 'Still there?' })
    .then((answer) => received.push(answer));
  await expect.poll(() => inboxB.get('live')?.prompt).toBe('Still there?');
  await outage();
  // A's lease ran out longer ago than the grace: an old store's sweep closed A's question here.
  expect((await leaseOf(look)).a).toBeLessThan(-leaseMs);
  await b.sweep();
  expect(await look(`SELECT state FROM waitfor_questions WHERE id = 'live'`)).toEqual([
    { state: 'open' },
  ]);
  expect(received).toEqual([]);

  // The heartbeats come; the question is offered again and answered; the asker gets the answer.
  vi.advanceTimersByTime(leaseMs / 3);
  await expect.poll(async () => (await leaseOf(look)).a).toBeGreaterThan(0);
  await inboxB.refresh();
  const won = inboxB.submit(accept('live', { here: true }));
  // A's notices are still down: its reload finds the answer.
  await expect
    .poll(async () => {
      await inboxA.refresh();
      return received;
    })
    .toEqual([accept('live', { here: true })]);
  expect(await won).toBe(true);
  await waiting;
});

it('asks again, under a new row, a question of its own the fleet closed while it was alive (cut off past its lease)', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const { a, b, look } = await twoHosts();
  const inboxA = await a.inbox('shared');
  const inboxB = await b.inbox('shared');
  const waiting = inboxA.waitFor({ id: 'mine', kind: 'question', prompt: 'Mine?' });
  await expect.poll(() => inboxB.get('mine')?.prompt).toBe('Mine?');
  // Another host took A for gone (A was cut off, its lease ran out long ago) and closed it.
  await look(
    `UPDATE waitfor_instances SET lease_until = now() - interval '1 hour' WHERE instance = 'a'`,
  );
  await look(`UPDATE waitfor_questions SET state = 'closed', outcome = 'closed', ended_at = now()`);
  expect(await inboxB.submit(accept('mine'))).toBe(false);
  // A is back in touch: it renews, learns of the close, and asks the same Request again.
  vi.advanceTimersByTime(leaseMs / 3);
  await expect.poll(async () => (await leaseOf(look)).a).toBeGreaterThan(0);
  await inboxA.refresh();
  const rows = await look(`SELECT id, state FROM waitfor_questions ORDER BY seq`);
  expect(rows).toEqual([
    { id: 'mine', state: 'closed' },
    { id: 'mine', state: 'open' },
  ]);
  await inboxB.refresh();
  expect(inboxB.get('mine')?.prompt).toBe('Mine?');
  expect(await inboxB.submit(accept('mine', { second: 'time' }))).toBe(true);
  expect(await waiting).toEqual(accept('mine', { second: 'time' }));
});
