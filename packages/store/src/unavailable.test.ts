import { accept } from '@waitfor/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import { createStore, postgresDriver, StoreError } from './index';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase('down');
});
afterAll(async () => {
  await server?.destroy();
});

const isUnavailable = (error: unknown): boolean =>
  StoreError.isInstance(error) && error.code === 'unavailable';

it('gives typed errors while PostgreSQL is down, and hears notices again once it is back', async () => {
  const connectionString = server.url('down');
  const options = { reconnectMs: 200 };
  const a = await createStore({
    driver: postgresDriver({ connectionString, ...options }),
    pollMs: 0,
  });
  const b = await createStore({
    driver: postgresDriver({ connectionString, ...options }),
    pollMs: 0,
  });
  const inboxA = await a.inbox('tenant');
  const inboxB = await b.inbox('tenant');
  const first = { id: 'before', kind: 'approval', prompt: 'Asked before the outage' };
  const waiting = inboxA.waitFor(first);
  await expect.poll(() => inboxB.getSnapshot().length).toBe(1);

  await server.stop();
  const refused = await inboxB.submit(accept(first)).catch((error: unknown) => error);
  expect(isUnavailable(refused)).toBe(true);
  expect(isUnavailable(await inboxB.refresh().catch((error: unknown) => error))).toBe(true);
  const asked = await inboxA
    .waitFor({ id: 'during', kind: 'approval', prompt: 'Asked during the outage' })
    .catch((error: unknown) => error);
  expect(isUnavailable(asked)).toBe(true);
  const starting = await createStore({
    driver: postgresDriver({ connectionString }),
    pollMs: 0,
  }).catch((error: unknown) => error);
  expect(isUnavailable(starting)).toBe(true);

  await server.start();
  // The LISTEN connection comes back by itself: a question asked on A shows on B by NOTIFY.
  const second = { id: 'after', kind: 'approval', prompt: 'Asked after the outage' };
  const later = inboxA.waitFor(second);
  await expect
    .poll(() => inboxB.getSnapshot().map((request) => request.id), { timeout: 30_000 })
    .toEqual(['before', 'after']);
  // The wait from before the outage was not lost either.
  expect(await inboxB.submit(accept(first))).toBe(true);
  expect(await waiting).toEqual(accept(first));
  expect(await inboxB.submit(accept(second))).toBe(true);
  expect(await later).toEqual(accept(second));
  await Promise.all([a.close(), b.close()]);
});
