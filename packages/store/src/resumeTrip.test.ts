/**
 * A durable call's answer → resume trip across two hosts, statement by statement: the resuming
 * host claims the call and gets its answers with the claim, then stores the result and marks the
 * answers delivered in one statement; the asking host learns the result from the `done` notice
 * when it fits NOTIFY, and reads the stored row when it does not, or when it missed the notice.
 * A real dual-era MCP server over HTTP, real v2 clients, on PGlite and a real PostgreSQL.
 */
import { PGlite } from '@electric-sql/pglite';
import { accept } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  openClient,
  scriptedPerson,
  textOf,
  useDualEraServer,
} from '../../mcp-bridge/src/__fixtures__/clients';
import type { OpenClient } from '../../mcp-bridge/src/__fixtures__/clients';
import { callStatements } from './calls/callSql';
import type { Driver, Queryable } from './drivers/driver';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import type { Store } from './index';
import { createStore, pgliteDriver, postgresDriver } from './index';
import { namesOf } from './names';

const mcp = useDualEraServer();
const calls = callStatements(namesOf());
let server: PostgresServer | undefined;
const clients: OpenClient[] = [];
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.destroy();
});

const neverAsked = scriptedPerson(() => {
  throw new Error('durable calls must not ask in-process');
});
// One client per host, opened once: each trip's resume goes through the resuming host's.
const bridges: Promise<OpenClient['bridge']>[] = [];
const client = (host: 0 | 1) =>
  (bridges[host] ??= openClient('v2-modern', 'http', { url: mcp.url }, neverAsked).then(
    (opened) => {
      clients.push(opened);
      return opened.bridge;
    },
  ));

/** A driver that records every statement it runs and can drop the `done` notices it hears. */
function counted(driver: Driver) {
  const texts: string[] = [];
  const state = { dropDone: false };
  const recording = (queryable: Queryable): Queryable => ({
    query: (sql, params) => {
      texts.push(sql);
      return queryable.query(sql, params);
    },
  });
  const wrapped: Driver = {
    ...recording(driver),
    transaction: (work) => driver.transaction((tx) => work(recording(tx))),
    listen: (channel, onMessage, onResumed) =>
      driver.listen(
        channel,
        (payload) => {
          if (state.dropDone && (JSON.parse(payload) as { e?: unknown }).e === 'done') return;
          onMessage(payload);
        },
        onResumed,
      ),
    close: () => driver.close(),
  };
  const count = (sql: string) => texts.filter((text) => text === sql).length;
  return { driver: wrapped, texts, state, count };
}

type Counted = ReturnType<typeof counted>;

describe.each([
  {
    name: 'pglite',
    open: async () => {
      const db = await PGlite.create();
      const [a, b] = [
        counted(await pgliteDriver({ pglite: db })),
        counted(await pgliteDriver({ pglite: db })),
      ];
      const look = async (sql: string, params: unknown[]) =>
        (await db.query(sql, params)).rows as Record<string, unknown>[];
      return { a, b, look, end: () => db.close() };
    },
  },
  {
    name: 'postgres',
    open: async () => {
      const name = `resume_trip_${Math.random().toString(36).slice(2)}`;
      await server!.createDatabase(name);
      const connectionString = server!.url(name);
      const a = counted(await postgresDriver({ connectionString }));
      const b = counted(await postgresDriver({ connectionString }));
      const { default: pg } = await import('pg');
      const direct = new pg.Pool({ connectionString, max: 1 });
      const look = async (sql: string, params: unknown[]) => (await direct.query(sql, params)).rows;
      return { a, b, look, end: () => direct.end() };
    },
  },
])('answer → resumed across hosts on $name', ({ open }) => {
  let opened: { a: Counted; b: Counted; stores: Store[]; end(): Promise<void> } | undefined;
  afterEach(async () => {
    await Promise.all(opened?.stores.map((store) => store.close()) ?? []);
    await opened?.end();
    opened = undefined;
  });

  /** Host A makes the call and answers it with `note`; host B resumes it. */
  async function trip(note: string, { dropDone = false } = {}) {
    const { a, b, look, end } = await open();
    const storeA = await createStore({ driver: a.driver, instance: 'a', pollMs: 0 });
    const storeB = await createStore({ driver: b.driver, instance: 'b', pollMs: 0 });
    opened = { a, b, stores: [storeA, storeB], end };
    const bridgeA = await client(0);
    const bridgeB = await client(1);
    const callsA = storeA.durableCalls({ clientFor: () => bridgeA, work: false });
    storeB.durableCalls({ clientFor: () => bridgeB });
    const inbox = await storeA.inbox('trip');
    const started = await callsA.callTool('trip', 'fixture', { name: 'ask_annotated' });
    expect(started.status).toBe('waiting');
    await expect.poll(() => inbox.getSnapshot().length).toBe(1);
    const result = callsA.result(started.callId);
    // A read where the call stands once, before the answer: the reader's first look.
    await expect.poll(() => a.count(calls.callState)).toBe(1);
    a.texts.length = 0;
    b.texts.length = 0;
    a.state.dropDone = dropDone;
    expect(await inbox.submit(accept(inbox.getSnapshot()[0]!, { note }))).toBe(true);
    return { a, b, look, callsA, storeA, callId: started.callId, result };
  }

  it('runs one claim and one finish on the resuming host; the asker reads no row: the done notice carried the result', async () => {
    const { a, b, look, callId, result } = await trip('short');
    expect(textOf(await result)).toBe('accept:{"note":"short"}');
    await expect.poll(() => b.count(calls.completeResumed)).toBe(1);
    // The claim brought the answers: no read of them, no separate delivery mark.
    expect(b.texts.filter((text) => text !== calls.claimCall)).toEqual([calls.completeResumed]);
    expect(a.count(calls.callState)).toBe(0);
    // The answer was marked delivered, its data removed, by the statement that stored the result.
    const rows = await look(
      'SELECT delivered_at, answer FROM waitfor_questions WHERE call_id = $1',
      [callId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.delivered_at).not.toBeNull();
    expect(rows[0]!.answer).toEqual({ id: expect.any(String), ok: true });
    // What the notice carried is what is stored.
    const [stored] = await look('SELECT result FROM waitfor_calls WHERE call_id = $1', [callId]);
    expect(await result).toEqual(stored!.result);
  });

  it('reads the stored row when the result is too long for NOTIFY, and the finish still succeeds', async () => {
    const note = 'n'.repeat(9_000);
    const { a, look, callId, result } = await trip(note);
    expect(textOf(await result)).toBe(`accept:{"note":"${note}"}`);
    expect(a.count(calls.callState)).toBe(1);
    const [stored] = await look('SELECT state, result FROM waitfor_calls WHERE call_id = $1', [
      callId,
    ]);
    expect(stored!.state).toBe('complete');
    expect(await result).toEqual(stored!.result);
  });

  it('a reader that missed the done notice reads the row, at the next poll or on a later result()', async () => {
    const { a, look, callsA, storeA, callId, result } = await trip('missed', { dropDone: true });
    await expect
      .poll(
        async () => (await look('SELECT state FROM waitfor_calls WHERE call_id = $1', [callId]))[0],
      )
      .toEqual({ state: 'complete' });
    let settled = false;
    void result.then(() => (settled = true));
    // The notice was dropped: the reader still waits, until the poll wakes it to read the row.
    await Promise.resolve();
    expect(settled).toBe(false);
    await storeA.sweep();
    expect(textOf(await result)).toBe('accept:{"note":"missed"}');
    expect(a.count(calls.callState)).toBeGreaterThanOrEqual(1);
    // A reader that comes later reads the same stored result.
    expect(await callsA.result(callId)).toEqual(await result);
  });
});
