/**
 * Benchmark — store fleet. @waitfor/store on a real PostgreSQL (Debian's server, started by the
 * store's own test harness in a temporary directory) and on PGlite: the time from an answer given
 * through one host until the asking host's wait resumes, against core's in-memory inbox in one
 * process; answers per second with three hosts on one database; opening an inbox that lists a
 * scope of 10,000 open questions; and the asking host's heap per open question.
 */
import { accept, createInbox, type Inbox, type Request } from '@waitfor/core';
import { createStore, pgliteDriver, postgresDriver, type Store } from '@waitfor/store';
import { startPostgres } from '../../packages/store/src/__fixtures__/postgresServer';
import { ms } from './format';
import { question, until } from './inboxQuestions';
import { collectGarbage, median, quantile } from './stats';
import type { BenchResult } from './result';

/** Answers timed per latency figure (after WARMUP untimed ones). */
export const ANSWERS = 200;
const WARMUP = 20;
/** Questions answered by three hosts for the throughput figure (a third asked on each). */
export const FLEET_ANSWERS = 600;
/** Open questions in the scope whose inbox is opened. */
export const OPEN_QUESTIONS = 10_000;
const SNAPSHOT_RUNS = 5;

/**
 * Asks on `asker`, answers through `answerer` (once it lists the question), and times from the
 * answer until the asker's wait has resumed with it.
 */
async function answerToResume(
  asker: Inbox,
  answerer: Inbox,
  answer: (request: Request) => unknown,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < WARMUP + ANSWERS; index++) {
    const request = question(`q${index}`);
    const waiting = asker.waitFor(request);
    await until(answerer, () => answerer.get(request.id) !== undefined);
    const start = performance.now();
    const answered = Promise.resolve(answer(request));
    const resumed = await waiting;
    if (index >= WARMUP) latencies.push(performance.now() - start);
    if (!resumed.ok) throw new Error(`${request.id} resumed with ${JSON.stringify(resumed)}`);
    // The answerer's own result (a store's submit settles once it learns the asker read it) is
    // awaited outside the timing, so none is left pending when the stores close.
    await answered;
  }
  return latencies;
}

/** Two stores as two hosts: one asks, the other answers (submit: the store's final word). */
async function acrossHosts(a: Store, b: Store, scope: string): Promise<number[]> {
  const [asker, answerer] = [await a.inbox(scope), await b.inbox(scope)];
  return answerToResume(asker, answerer, (request) => answerer.submit(accept(request)));
}

/** Three hosts: each asks a third of the questions, the next host answers them, all at once. */
async function answersPerSecond(hosts: Store[], scope: string): Promise<number> {
  const inboxes = await Promise.all(hosts.map((host) => host.inbox(scope)));
  const perHost = FLEET_ANSWERS / hosts.length;
  const asked = inboxes.map((inbox, host) =>
    Array.from({ length: perHost }, (_, index) => question(`h${host}-${index}`)),
  );
  const waits = asked.flatMap((requests, host) =>
    requests.map((request) => inboxes[host]!.waitFor(request)),
  );
  await Promise.all(
    inboxes.map((inbox) => until(inbox, () => inbox.getSnapshot().length === FLEET_ANSWERS)),
  );
  const start = performance.now();
  const submitted = asked.flatMap((requests, host) =>
    requests.map((request) => inboxes[(host + 1) % hosts.length]!.submit(accept(request))),
  );
  const [won, resumed] = await Promise.all([Promise.all(submitted), Promise.all(waits)]);
  const seconds = (performance.now() - start) / 1000;
  if (!won.every(Boolean) || !resumed.every((answer) => answer.ok))
    throw new Error('an answer was lost');
  return FLEET_ANSWERS / seconds;
}

/**
 * Fills `scope` with OPEN_QUESTIONS open questions asked on `asker` (its heap measured around
 * it), then times opening a fresh inbox of the scope on `reader`: the load of the whole snapshot.
 */
async function bigScope(asker: Store, reader: Store, scope: string) {
  const inbox = await asker.inbox(scope);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const batch = 500;
  for (let start = 0; start < OPEN_QUESTIONS; start += batch) {
    for (let index = start; index < start + batch; index++)
      void inbox.waitFor(question(`open${index}`));
    await until(inbox, () => inbox.getSnapshot().length === start + batch);
  }
  collectGarbage();
  const heapPerQuestion = (process.memoryUsage().heapUsed - before) / OPEN_QUESTIONS;
  const opens: number[] = [];
  for (let run = 0; run < SNAPSHOT_RUNS; run++) {
    const begin = performance.now();
    const opened = await reader.inbox(scope);
    const length = opened.getSnapshot().length;
    opens.push(performance.now() - begin);
    if (length !== OPEN_QUESTIONS) throw new Error(`listed ${length} questions`);
    opened.close();
  }
  return { heapPerQuestion, open: median(opens) };
}

/** The in-memory baseline: core's inbox, the asker and the answerer in one process. */
async function inMemory(): Promise<number[]> {
  const inbox = createInbox();
  return answerToResume(inbox, inbox, (request) => inbox.answer(accept(request)));
}

/** Run the store-fleet benchmark. */
export async function benchStoreFleet(): Promise<BenchResult> {
  const memory = await inMemory();
  const server = await startPostgres();
  try {
    await server.createDatabase('bench');
    const connectionString = server.url('bench');
    const host = (instance: string) =>
      createStore({ driver: postgresDriver({ connectionString }), instance, pollMs: 0 });
    const hosts = [await host('a'), await host('b'), await host('c')];
    const [a, b] = hosts as [Store, Store];
    const postgres = await acrossHosts(a, b, 'latency');
    const perSecond = await answersPerSecond(hosts, 'throughput');
    const postgresScope = await bigScope(a, b, 'big');
    // The same work on one PGlite: one store in this process, two inboxes as asker and answerer.
    const [postgresOne, pglite, pgliteScope] = await (async () => {
      const one = await host('one');
      const lite = await createStore({ driver: pgliteDriver(), instance: 'lite', pollMs: 0 });
      try {
        return [
          await acrossHosts(one, one, 'same'),
          await acrossHosts(lite, lite, 'same'),
          await bigScope(lite, lite, 'big'),
        ] as const;
      } finally {
        await Promise.all([one.close(), lite.close()]);
      }
    })();
    await Promise.all(hosts.map((store) => store.close()));

    const ratio = median(postgres) / median(memory);
    return {
      id: 'store-fleet',
      title: 'store: answer → resumed across hosts, answers/s, 10,000 open, PGlite vs PostgreSQL',
      method: `PostgreSQL (Debian's server, fsync off, 127.0.0.1) and in-memory PGlite; hosts are createStore instances in one Node process, each with its own pg pool and LISTEN connection (pollMs 0: notices only). Latency: ${ANSWERS} questions one at a time, timed from submit() on the answering host until waitFor() resolved on the asking host, against core's createInbox answered in process. Throughput: ${FLEET_ANSWERS} questions, a third asked on each of three hosts and all submitted at once by the next. ${OPEN_QUESTIONS.toLocaleString('en-US')} open questions: the asking host's heap before and after (after GC), and store.inbox() on another host (the whole snapshot loaded), median of ${SNAPSHOT_RUNS}.`,
      figures: [
        {
          name: 'answer → resumed, PostgreSQL, across two hosts: median',
          value: median(postgres),
          unit: 'ms',
          runs: postgres.length,
        },
        {
          name: 'answer → resumed, PostgreSQL, across two hosts: p99',
          value: quantile(postgres, 0.99),
          unit: 'ms',
          runs: postgres.length,
          detail: `max ${ms(Math.max(...postgres))}`,
        },
        {
          name: 'answer → resumed, in-memory inbox, one process: median',
          value: median(memory),
          unit: 'ms',
          runs: memory.length,
        },
        {
          name: 'answer → resumed, in-memory inbox, one process: p99',
          value: quantile(memory, 0.99),
          unit: 'ms',
          runs: memory.length,
        },
        {
          name: 'answer → resumed: PostgreSQL across hosts ÷ in-memory (medians)',
          value: ratio,
          unit: '×',
          runs: postgres.length,
          detail: `${ms(median(postgres))} vs ${ms(median(memory))}`,
        },
        {
          name: `answers per second, three hosts on one PostgreSQL (${FLEET_ANSWERS} at once)`,
          value: Math.round(perSecond),
          unit: '/s',
          runs: 1,
        },
        {
          name: `open an inbox listing ${OPEN_QUESTIONS.toLocaleString('en-US')} open questions, PostgreSQL`,
          value: postgresScope.open,
          unit: 'ms',
          runs: SNAPSHOT_RUNS,
        },
        {
          name: `open an inbox listing ${OPEN_QUESTIONS.toLocaleString('en-US')} open questions, PGlite`,
          value: pgliteScope.open,
          unit: 'ms',
          runs: SNAPSHOT_RUNS,
        },
        {
          name: 'answer → resumed, one store: PGlite ÷ PostgreSQL (medians)',
          value: median(pglite) / median(postgresOne),
          unit: '×',
          runs: pglite.length,
          detail: `${ms(median(pglite))} vs ${ms(median(postgresOne))}; p99 ${ms(quantile(pglite, 0.99))} vs ${ms(quantile(postgresOne, 0.99))}`,
        },
        {
          name: `open an inbox of ${OPEN_QUESTIONS.toLocaleString('en-US')}: PGlite ÷ PostgreSQL`,
          value: pgliteScope.open / postgresScope.open,
          unit: '×',
          runs: SNAPSHOT_RUNS,
        },
        {
          name: 'asking host heap per open question (its wait and its inbox entry), PostgreSQL',
          value: Math.round(postgresScope.heapPerQuestion),
          unit: 'bytes',
          runs: 1,
          detail: `PGlite: ${Math.round(pgliteScope.heapPerQuestion)} bytes (its WebAssembly memory not counted)`,
        },
      ],
      notes: [],
    };
  } finally {
    await server.destroy();
  }
}
