/**
 * Part of the store-queue benchmark: a durable call's question answered on host A, the call
 * resumed on host B (it claims it, sends the answer to the server, stores the result) and its
 * result read on A — against the floor of such a trip on the same PostgreSQL: one UPDATE plus one
 * raw NOTIFY → LISTEN round trip between two pg connections. Sampled alternately, one at a time.
 */
import { accept, type Request } from '@waitfor/core';
import { attachWaitFor } from '@waitfor/mcp-bridge';
import { createStore, postgresDriver, type Store } from '@waitfor/store';
import pg from 'pg';
import { connectInMemory, neverAsked, textOf, type BenchConnection } from './benchServer';
import { countingDriver, type CountingDriver, type StatementCount } from './countingDriver';
import { until } from './inboxQuestions';
import { bounded } from './bounded';

/** Timed trips of each kind (after WARMUP untimed ones). */
export const RESUMES = 200;
const WARMUP = 20;
/** A trip that takes longer than this fails the part (a call never resumed). */
const TRIP_LIMIT_MS = 10_000;

/** One timed trip and, for the store's, the statements each host ran during it. */
export interface ResumeSamples {
  store: number[];
  floor: number[];
  /** Per store trip: statements on A (answer, result read) and on B (claim, resume, finish). */
  counts: { a: StatementCount; b: StatementCount }[];
}

/** The floor: one UPDATE, then NOTIFY from one connection, NOTIFY back from the other on receipt. */
async function openFloor(connectionString: string) {
  const [one, two] = [new pg.Client({ connectionString }), new pg.Client({ connectionString })];
  await Promise.all([one.connect(), two.connect()]);
  await one.query('CREATE TABLE bench_floor (id integer PRIMARY KEY, n bigint NOT NULL)');
  await one.query('INSERT INTO bench_floor VALUES (1, 0)');
  await Promise.all([one.query('LISTEN bench_pong'), two.query('LISTEN bench_ping')]);
  two.on('notification', (message) => {
    if (message.channel === 'bench_ping') void two.query('NOTIFY bench_pong');
  });
  let pong: (() => void) | undefined;
  one.on('notification', (message) => {
    if (message.channel === 'bench_pong') pong?.();
  });
  return {
    async sample(): Promise<number> {
      const start = performance.now();
      await one.query('UPDATE bench_floor SET n = n + 1 WHERE id = 1');
      const back = new Promise<void>((resolve) => (pong = resolve));
      await one.query('NOTIFY bench_ping');
      await back;
      return performance.now() - start;
    },
    close: () => Promise.all([one.end(), two.end()]),
  };
}

/** Two hosts: A makes calls (work: false) and answers them, B claims and resumes them. */
async function openHosts(connectionString: string) {
  const opened: { store: Store; counter: CountingDriver; connection: BenchConnection }[] = [];
  for (const instance of ['a', 'b']) {
    const counter = countingDriver(await postgresDriver({ connectionString }));
    const store = await createStore({ driver: counter.driver, instance, pollMs: 0 });
    // Durable calls ask no one in process: the bridge's waitFor is never called.
    const connection = await connectInMemory(
      'modern',
      { capabilities: { elicitation: { form: {} } } },
      (client) => attachWaitFor(client, { waitFor: neverAsked, modes: ['form'] }),
    );
    opened.push({ store, counter, connection });
  }
  const [a, b] = opened as [(typeof opened)[0], (typeof opened)[0]];
  const callsA = a.store.durableCalls({ clientFor: () => a.connection.bridge!, work: false });
  b.store.durableCalls({ clientFor: () => b.connection.bridge! });
  const inboxA = await a.store.inbox('resume');
  const seen = new Set<string>();
  return {
    async sample(): Promise<{ ms: number; a: StatementCount; b: StatementCount }> {
      const started = await callsA.callTool('resume', 'bench', { name: 'confirm' });
      if (started.status !== 'waiting') throw new Error('the confirm call did not wait');
      // The caller awaits its result from the start, as a host would.
      const result = callsA.result(started.callId);
      let asked: Request | undefined;
      await until(inboxA, () => {
        asked = inboxA.getSnapshot().find((request) => !seen.has(request.id));
        return asked !== undefined;
      });
      seen.add(asked!.id);
      a.counter.reset();
      b.counter.reset();
      const start = performance.now();
      const [won, outcome] = await Promise.all([
        inboxA.submit(accept(asked!, { confirm: true })),
        result,
      ]);
      const ms = performance.now() - start;
      if (!won || textOf(outcome) !== 'yes')
        throw new Error(`call ${started.callId} ended with ${JSON.stringify(outcome)}`);
      return { ms, a: a.counter.read(), b: b.counter.read() };
    },
    async close() {
      for (const host of opened) {
        await host.store.close();
        await host.connection.close();
      }
    },
  };
}

/** Samples the store's trip and the floor alternately, WARMUP untimed pairs first. */
export async function sampleResumes(connectionString: string): Promise<ResumeSamples> {
  const floor = await openFloor(connectionString);
  const hosts = await openHosts(connectionString);
  const samples: ResumeSamples = { store: [], floor: [], counts: [] };
  try {
    for (let index = 0; index < WARMUP + RESUMES; index++) {
      const storeFirst = index % 2 === 0;
      const store = () => bounded(hosts.sample(), TRIP_LIMIT_MS, 'a durable call answered on A');
      const trip = storeFirst ? await store() : undefined;
      const raw = await bounded(floor.sample(), TRIP_LIMIT_MS, 'the NOTIFY round trip');
      const late = trip ?? (await store());
      if (index < WARMUP) continue;
      samples.store.push(late.ms);
      samples.floor.push(raw);
      samples.counts.push({ a: late.a, b: late.b });
    }
  } finally {
    await hosts.close();
    await floor.close();
  }
  return samples;
}
