/**
 * Every state change of the store against a concurrent answer, on a real PostgreSQL under READ
 * COMMITTED: session A holds an answer's transaction open, session B runs the transition and waits
 * on A's row lock, A commits. The transition must see the answered row and act on what it is now
 * (leave it, or — for a question nobody will read — close it as `undelivered`), never overwrite it.
 */
import type { Client } from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callStatements } from './calls/callSql';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import { applyMigrations } from './migrations';
import { namesOf } from './names';
import { postgresDriver } from './drivers/postgres';
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

/** Two sessions (A answers, B runs the transition) and a third to look, on a fresh database. */
async function sessions(): Promise<{ a: Client; b: Client; look: Client; close(): Promise<void> }> {
  const name = `transitions_${++database}`;
  await server.createDatabase(name);
  const connectionString = server.url(name);
  const driver = await postgresDriver({ connectionString });
  await applyMigrations(driver, names);
  await driver.close();
  const { default: pg } = await import('pg');
  const open = async () => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    return client;
  };
  const [a, b, look] = [await open(), await open(), await open()];
  return { a, b, look, close: () => Promise.all([a, b, look].map((c) => c.end())).then(() => {}) };
}

const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const answer = JSON.stringify({ id: 'q', ok: true, data: { region: 'eu' } });

/** Asks question `q` as host `asker` (alive), expiring in `expiresInMs`; returns its seq. */
async function ask(look: Client, expiresInMs: number): Promise<string> {
  await look.query(sql.renewInstance, ['asker', 60_000]);
  return insertAsked(look, at(expiresInMs), 'asker', null);
}

/** Inserts question `q` of `scope`, asked by `askedBy` for call `callId` (or none); its seq. */
async function insertAsked(
  look: Client,
  expiresAt: string | null,
  askedBy: string,
  callId: string | null,
): Promise<string> {
  const request = JSON.stringify({ id: 'q', kind: 'input', prompt: 'Region?' });
  const params = ['scope', 'q', 'input', request, null, expiresAt, askedBy, callId];
  const { rows } = await look.query(sql.insertQuestion, params);
  return String(rows[0].seq);
}

/** Asks question `q` for durable call `callId` (no host waits for it in memory); returns its seq. */
const askForCall = (look: Client, callId: string) => insertAsked(look, null, 'maker', callId);

/** Answers question `seq` (accepted, by `ann`), as any host's answer does. */
const answerQuestion = (look: Client, seq: string) =>
  look.query(sql.endQuestion, ['scope', seq, 'answered', answer, 'accepted', 'ann', false, at(0)]);

/** Resolves once session `pid` waits on a lock (so it read the row before A committed). */
async function blocked(look: Client, pid: number): Promise<void> {
  for (;;) {
    const { rows } = await look.query(
      `SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`,
      [pid],
    );
    if (rows[0]?.wait_event_type === 'Lock') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Case {
  name: string;
  /** Puts the world in the state where the transition applies (after A answered, uncommitted). */
  prepare?: (look: Client) => Promise<void>;
  run: (b: Client, seq: string) => Promise<unknown>;
  /** What the row is after A's commit and B's statement. */
  after: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'expireDue of every scope (the sweep), its timer 1 ms after the answer',
    run: (b) => b.query(sql.expireDue, [at(60_000), null, false]),
    after: { state: 'answered', outcome: 'accepted' },
  },
  {
    name: "expireDue of one scope (an inbox's expiry timer)",
    run: (b) => b.query(sql.expireDue, [at(60_000), 'scope', false]),
    after: { state: 'answered', outcome: 'accepted' },
  },
  {
    name: "endQuestion expired (the asker's own timer)",
    run: (b, seq) =>
      b.query(sql.endQuestion, ['scope', seq, 'expired', null, 'expired', null, false, at(0)]),
    after: { state: 'answered', outcome: 'accepted' },
  },
  {
    name: 'endQuestion cancelled (the asker aborts)',
    run: (b, seq) =>
      b.query(sql.endQuestion, ['scope', seq, 'cancelled', null, 'cancelled', null, false, at(0)]),
    after: { state: 'answered', outcome: 'accepted' },
  },
  {
    name: 'endQuestion answered (a second answer on another host)',
    run: (b, seq) =>
      b.query(sql.endQuestion, [
        'scope',
        seq,
        'answered',
        JSON.stringify({ id: 'q', ok: false, reason: 'declined' }),
        'declined',
        'second',
        false,
        at(0),
      ]),
    after: { state: 'answered', outcome: 'accepted', answered_by: 'first' },
  },
  {
    name: 'closeOrphans (its asker died meanwhile): closed, but as an undelivered answer',
    prepare: (look) =>
      look
        .query(`UPDATE waitfor_instances SET lease_until = now() - interval '1 hour'`)
        .then(() => {}),
    run: (b) => b.query(sql.closeOrphans, [false, 0]),
    after: { state: 'closed', outcome: 'undelivered', answered_by: 'first' },
  },
  {
    name: 'closePreviousLife (its asker started again): closed, but as an undelivered answer',
    run: (b) => b.query(sql.closePreviousLife, ['asker', false]),
    after: { state: 'closed', outcome: 'undelivered', answered_by: 'first' },
  },
];

describe('a transition that waited on an answer being committed', () => {
  let world: Awaited<ReturnType<typeof sessions>>;
  beforeEach(async () => {
    world = await sessions();
    return () => world.close();
  });

  it.each(cases)('$name', async ({ prepare, run, after }) => {
    const { a, b, look } = world;
    const seq = await ask(look, 30_000);
    const [{ pid }] = (await b.query('SELECT pg_backend_pid() AS pid')).rows;
    await a.query('BEGIN');
    const answered = await a.query(sql.endQuestion, [
      'scope',
      seq,
      'answered',
      answer,
      'accepted',
      'first',
      false,
      at(0),
    ]);
    expect(answered.rows).toHaveLength(1);
    await prepare?.(look);
    // The answer came before the question's expiry by its clock; the sweep runs after it by its own.
    const running = run(b, seq);
    await blocked(look, pid);
    await a.query('COMMIT');
    await running;
    const { rows } = await look.query(
      'SELECT state, outcome, answered_by, answer FROM waitfor_questions WHERE seq = $1',
      [seq],
    );
    expect(rows[0]).toMatchObject(after);
    // The answer is never replaced: kept until its asker reads it, or reduced to who and how.
    expect(rows[0].answer).toMatchObject({ id: 'q', ok: true });
  });
});

it('builds every statement that sets a state with transition(): the state it leaves is in its own WHERE', () => {
  const all = { ...sql, ...calls };
  const setsState = Object.entries(all).filter(([, text]) => /\bSET\s+state\s*=/i.test(text));
  expect(setsState.map(([name]) => name).sort()).toEqual(
    [
      'claimCall',
      'closeOrphans',
      'closePreviousLife',
      'completeResumed',
      'endQuestion',
      'expireDue',
      'finishCall',
      'giveBack',
      'retryLater',
      'suspendAgain',
      'withdrawQuestions',
    ].sort(),
  );
  for (const [name, text] of setsState)
    expect(text, name).toMatch(/WHERE \([\s\S]*\) AND \w+\.state IN \('[a-z]+'(, '[a-z]+')*\)/);
});

describe("a task's answer: the poller takes it, or its submit's bound gives it back — never both", () => {
  let world: Awaited<ReturnType<typeof sessions>>;
  beforeEach(async () => {
    world = await sessions();
    return () => world.close();
  });

  /** A task call claimed by host `poller`, its question `q` answered and not sent; its seq. */
  async function answeredTask(look: Client): Promise<string> {
    await look.query(calls.insertTaskCall, ['t1', 'scope', 'server', '{"kind":"task"}', 'maker']);
    expect((await look.query(calls.claimCall, ['poller', 60_000])).rows).toHaveLength(1);
    const seq = await askForCall(look, 't1');
    const ended = await answerQuestion(look, seq);
    expect(ended.rows).toMatchObject([{ held: false, task: true }]);
    return seq;
  }

  const take = (client: Client) => client.query(calls.takeUnsent, ['t1', 'poller', '["q"]']);
  const giveBack = (client: Client, seq: string) =>
    client.query(sql.giveBack, ['scope', seq, false]);
  const rowOf = async (look: Client, seq: string) =>
    (
      await look.query(
        `SELECT state, outcome, answer, answered_by, sending_by, request IS NOT NULL AS asked
          FROM waitfor_questions WHERE seq = $1`,
        [seq],
      )
    ).rows[0];

  it('taken first (the poller is about to send it): the give-back that waited on it changes nothing', async () => {
    const { a, b, look } = world;
    const seq = await answeredTask(look);
    const [{ pid }] = (await b.query('SELECT pg_backend_pid() AS pid')).rows;
    await a.query('BEGIN');
    expect((await take(a)).rows).toMatchObject([{ seq, id: 'q', state: 'answered' }]);
    const giving = giveBack(b, seq);
    await blocked(look, pid);
    await a.query('COMMIT');
    expect((await giving).rows).toEqual([]);
    expect(await rowOf(look, seq)).toMatchObject({
      state: 'answered',
      outcome: 'accepted',
      answered_by: 'ann',
      sending_by: 'poller',
    });
  });

  it('given back first: the take that waited on it takes nothing; the question is open again, as asked', async () => {
    const { a, b, look } = world;
    const seq = await answeredTask(look);
    const [{ pid }] = (await b.query('SELECT pg_backend_pid() AS pid')).rows;
    await a.query('BEGIN');
    expect((await giveBack(a, seq)).rows).toMatchObject([{ seq, state: 'open' }]);
    const taking = take(b);
    await blocked(look, pid);
    await a.query('COMMIT');
    expect((await taking).rows).toEqual([]);
    expect(await rowOf(look, seq)).toEqual({
      state: 'open',
      outcome: null,
      answer: null,
      answered_by: null,
      sending_by: null,
      asked: true,
    });
    expect((await look.query(sql.openQuestionById, ['scope', 'q'])).rows).toHaveLength(1);
  });

  it('a poller whose claim is gone takes nothing', async () => {
    const { look } = world;
    await answeredTask(look);
    await look.query(`UPDATE waitfor_calls SET lease_until = now() - interval '1 second'`);
    expect((await take(look)).rows).toEqual([]);
  });
});

describe('claiming a call', () => {
  it('hands a ready call to exactly one of two hosts claiming at once, and fences the loser', async () => {
    const { a, b, look, close } = await sessions();
    try {
      await look.query(calls.insertCall, ['c1', 'scope', 'server', '{}', 1, 'maker', false]);
      const [first, second] = await Promise.all([
        a.query(calls.claimCall, ['host-a', 30_000]),
        b.query(calls.claimCall, ['host-b', 30_000]),
      ]);
      const winners = [...first.rows, ...second.rows];
      expect(winners).toHaveLength(1);
      const loser = first.rows.length === 1 ? 'host-b' : 'host-a';
      // A host that holds no claim changes nothing.
      const fenced = await look.query(calls.finishCall, ['c1', loser, 'complete', '{}', null]);
      expect(fenced.rows).toEqual([]);
      const { rows } = await look.query('SELECT state, attempts, trace FROM waitfor_calls');
      expect(rows[0]).toMatchObject({ state: 'running', attempts: 1 });
      expect((rows[0].trace as { outcome: string }[]).map((step) => step.outcome)).toEqual([
        'suspended',
        'claimed',
      ]);
    } finally {
      await close();
    }
  });

  it("returns a modern call's ended questions with the claim; its completion marks them delivered, fenced by the claim", async () => {
    const { look, close } = await sessions();
    try {
      await look.query(calls.insertCall, ['c1', 'scope', 'server', '{}', 1, 'maker', true]);
      const seq = await askForCall(look, 'c1');
      // The answer ends the call's last question: the trigger makes the call ready.
      await answerQuestion(look, seq);
      const [claimed] = (await look.query(calls.claimCall, ['host-a', 30_000])).rows;
      expect(claimed.answers).toEqual([{ id: 'q', state: 'answered', answer: JSON.parse(answer) }]);
      const question = async () =>
        (
          await look.query('SELECT delivered_at, answer FROM waitfor_questions WHERE seq = $1', [
            seq,
          ])
        ).rows[0];
      // A host that holds no claim stores nothing and marks nothing delivered.
      const result = JSON.stringify({ content: [] });
      const fenced = await look.query(calls.completeResumed, ['c1', 'host-b', result, false]);
      expect(fenced.rows).toEqual([]);
      expect(await question()).toEqual({ delivered_at: null, answer: JSON.parse(answer) });
      const done = await look.query(calls.completeResumed, ['c1', 'host-a', result, false]);
      expect(done.rows).toMatchObject([{ call_id: 'c1', withdrawn: 0 }]);
      expect(await question()).toEqual({
        delivered_at: expect.any(Date),
        answer: { id: 'q', ok: true },
      });
      const { rows } = await look.query('SELECT state, result FROM waitfor_calls');
      expect(rows[0]).toEqual({ state: 'complete', result: { content: [] } });
    } finally {
      await close();
    }
  });

  it('returns no answers with the claim of a task (its poller takes them)', async () => {
    const { look, close } = await sessions();
    try {
      await look.query(calls.insertTaskCall, ['t1', 'scope', 'server', '{"kind":"task"}', 'maker']);
      const [claimed] = (await look.query(calls.claimCall, ['poller', 60_000])).rows;
      expect(claimed).toMatchObject({ kind: 'task', answers: null });
    } finally {
      await close();
    }
  });

  it('reads an index, never the whole table, at 100,000 calls', async () => {
    const { look, close } = await sessions();
    try {
      await look.query(`INSERT INTO waitfor_calls (call_id, scope, server_key, state, created_by,
          ended_at, run_at)
        SELECT 'ended-' || i, 'scope', 'server', 'complete', 'maker', now(), now()
        FROM generate_series(1, 100000) AS i`);
      await look.query(calls.insertCall, ['ready-1', 'scope', 'server', '{}', 1, 'maker', false]);
      await look.query('ANALYZE waitfor_calls');
      const { rows } = await look.query(`EXPLAIN ${calls.claimCall}`, ['host', 30_000]);
      const plan = rows.map((row) => String(row['QUERY PLAN'])).join('\n');
      expect(plan).not.toMatch(/Seq Scan on waitfor_calls/);
      expect(plan).toMatch(/waitfor_calls_ready/);
      expect(plan).toMatch(/waitfor_calls_running/);
      const claimed = await look.query(calls.claimCall, ['host', 30_000]);
      expect(claimed.rows.map((row) => row.call_id)).toEqual(['ready-1']);
    } finally {
      await close();
    }
  });
});
