/**
 * The statements a task's poller writes through, on PGlite and a real PostgreSQL: each replaces
 * the saved suspension only for the claim's holder and only from the version it read, and an
 * answer to a task's question wakes the poller without moving the call out of `running`.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callStatements } from './calls/callSql';
import type { Driver } from './drivers/driver';
import { pgliteDriver } from './drivers/pglite';
import { postgresDriver } from './drivers/postgres';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import { applyMigrations } from './migrations';
import { namesOf } from './names';
import { questionStatements } from './sql';

const names = namesOf();
const sql = questionStatements(names);
const calls = callStatements(names);

let server: PostgresServer;
let database = 0;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server?.destroy();
});

const task = (keys: string[]) =>
  JSON.stringify({
    version: 1,
    kind: 'task',
    taskId: 't-1',
    requests: keys.map((key) => ({ id: key, kind: 'input', prompt: key })),
  });

describe.each([
  { name: 'pglite', open: async () => pgliteDriver({ pglite: await PGlite.create() }) },
  {
    name: 'postgres',
    open: async () => {
      const name = `task_fencing_${++database}`;
      await server.createDatabase(name);
      return postgresDriver({ connectionString: server.url(name) });
    },
  },
])('a task call on $name', ({ open }) => {
  let driver: Driver;
  beforeAll(async () => {
    driver = await open();
    await applyMigrations(driver, names);
  });
  afterAll(() => driver.close());

  it('is claimed by one host; its suspension moves on once per version, only for the holder', async () => {
    await driver.query(calls.insertTaskCall, ['c1', 'scope', 'srv', task(['a']), 'maker']);
    const [claimed] = await driver.query(calls.claimCall, ['a', 60_000]);
    expect(claimed).toMatchObject({ call_id: 'c1', kind: 'task', version: 0 });
    // Held: nobody else claims it.
    expect(await driver.query(calls.claimCall, ['b', 60_000])).toEqual([]);
    // Not the holder: nothing changes.
    expect(await driver.query(calls.replaceSuspension, ['c1', 'b', 0, task(['b'])])).toEqual([]);
    // The holder, from the version it read: once.
    expect(await driver.query(calls.replaceSuspension, ['c1', 'a', 0, task(['b'])])).toEqual([
      { version: 1 },
    ]);
    // The same write again (a poller that read version 0 twice) changes nothing.
    expect(await driver.query(calls.replaceSuspension, ['c1', 'a', 0, task(['c'])])).toEqual([]);
    const [row] = await driver.query('SELECT suspension, version FROM waitfor_calls');
    expect(row).toMatchObject({ version: 1, suspension: { requests: [{ id: 'b' }] } });
  });

  it("an answer to a task's question leaves the call running (its poller sends it) and is unsent until marked", async () => {
    await driver.query(calls.insertTaskCall, ['c2', 'scope', 'srv', task(['k']), 'maker']);
    const [asked] = await driver.query(sql.insertQuestion, [
      'scope',
      'k',
      'input',
      JSON.stringify({ id: 'k', kind: 'input', prompt: 'k' }),
      null,
      null,
      'maker',
      'c2',
    ]);
    await driver.query(calls.claimCall, ['a', 60_000]);
    const answer = JSON.stringify({ id: 'k', ok: true, data: { v: 1 } });
    await driver.query(sql.endQuestion, [
      'scope',
      asked!.seq,
      'answered',
      answer,
      'accepted',
      'person',
      true,
      new Date().toISOString(),
    ]);
    const [call] = await driver.query(`SELECT state FROM waitfor_calls WHERE call_id = 'c2'`);
    expect(call!.state).toBe('running');
    expect(await driver.query(calls.unsentAnswers, ['c2'])).toMatchObject([{ id: 'k' }]);
    await driver.query(calls.markSent, ['c2', JSON.stringify([asked!.seq]), false]);
    expect(await driver.query(calls.unsentAnswers, ['c2'])).toEqual([]);
  });

  it('ends the open questions of keys that left the task, with the reason, never to be sent', async () => {
    await driver.query(calls.insertTaskCall, ['c3', 'scope3', 'srv', task(['x', 'y']), 'maker']);
    for (const key of ['x', 'y'])
      await driver.query(sql.insertQuestion, [
        'scope3',
        key,
        'input',
        JSON.stringify({ id: key, kind: 'input', prompt: key }),
        null,
        null,
        'maker',
        'c3',
      ]);
    const ended = await driver.query(calls.withdrawQuestions, [
      'c3',
      JSON.stringify(['y']),
      'withdrawn',
      false,
    ]);
    expect(ended).toHaveLength(1);
    const rows = await driver.query(
      `SELECT id, state, outcome FROM waitfor_questions WHERE call_id = 'c3' ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: 'x', state: 'cancelled', outcome: 'withdrawn' },
      { id: 'y', state: 'open', outcome: null },
    ]);
    expect(await driver.query(calls.unsentAnswers, ['c3'])).toEqual([]);
  });
  it("closes a task's answer not yet sent whose key left the task, with the reason; never marks it sent; a modern call's answers are left alone", async () => {
    await driver.query(calls.insertTaskCall, ['c4', 'scope4', 'srv', task(['p', 'q']), 'maker']);
    await driver.query(calls.insertCall, ['m4', 'scope4', 'srv', task(['r']), 1, 'maker', true]);
    const seqs = new Map<string, string>();
    for (const [key, callId] of [
      ['p', 'c4'],
      ['q', 'c4'],
      ['r', 'm4'],
    ] as const) {
      const [asked] = await driver.query(sql.insertQuestion, [
        'scope4',
        key,
        'input',
        JSON.stringify({ id: key, kind: 'input', prompt: key }),
        null,
        null,
        'maker',
        callId,
      ]);
      seqs.set(key, String(asked!.seq));
      const [ended] = await driver.query(sql.endQuestion, [
        'scope4',
        asked!.seq,
        'answered',
        JSON.stringify({ id: key, ok: true, data: { v: key } }),
        'accepted',
        'person',
        false,
        new Date().toISOString(),
      ]);
      // Only a modern call holds its answer at once; a task's waits for its poller's send.
      expect(ended!.held).toBe(callId === 'm4');
    }
    // p's key left the task (q still open); then the call ends.
    await driver.query(calls.withdrawQuestions, ['c4', JSON.stringify(['q']), 'withdrawn', false]);
    await driver.query(calls.withdrawQuestions, ['m4', null, 'failed', false]);
    expect(
      await driver.query(calls.markSent, ['c4', JSON.stringify([seqs.get('p')]), false]),
    ).toEqual([]);
    const rows = await driver.query(
      `SELECT id, state, outcome, delivered_at IS NOT NULL AS sent, answer FROM waitfor_questions
        WHERE scope = 'scope4' ORDER BY id`,
    );
    expect(rows).toEqual([
      {
        id: 'p',
        state: 'closed',
        outcome: 'withdrawn',
        sent: false,
        answer: { id: 'p', ok: true },
      },
      {
        id: 'q',
        state: 'answered',
        outcome: 'accepted',
        sent: false,
        answer: { id: 'q', ok: true, data: { v: 'q' } },
      },
      {
        id: 'r',
        state: 'answered',
        outcome: 'accepted',
        sent: false,
        answer: { id: 'r', ok: true, data: { v: 'r' } },
      },
    ]);
    // q is still to be sent; p never will be.
    expect((await driver.query(calls.unsentAnswers, ['c4'])).map((row) => row.id)).toEqual(['q']);
  });
});
