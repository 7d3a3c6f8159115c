/**
 * Part of the store-queue benchmark: answers per second with three hosts of @waitfor/store on one
 * PostgreSQL against pg-boss completing the same number of jobs with three workers on the same
 * server. pg-boss 12 needs Node ≥ 22.12, so its side runs in a child process on the Node 22 that
 * `npx -y -p node@22` provides (pgBossWorkers.ts); the runs of the two alternate.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { accept } from '@waitfor/core';
import { createStore, postgresDriver, type Store, type StoreInbox } from '@waitfor/store';
import { countingDriver, type CountingDriver, type StatementCount } from './countingDriver';
import { bounded } from './bounded';
import { question, until } from './inboxQuestions';
import type { PgBossRun } from './pgBossWorkers';
import { sleep } from './stats';

/** Hosts on the store's side, pg-boss instances on the other. */
export const HOSTS = 3;
/** Answers (and jobs) per run: a third asked on each host. */
export const QUEUE_ANSWERS = 600;
/** Concurrent fetch → complete loops per pg-boss instance: its pool, as large as a store host's. */
export const LOOPS = 10;
/** Timed runs of each side, after one untimed run of each. */
export const THROUGHPUT_RUNS = 5;
/** A run, or the child's start, that takes longer than this fails the part. */
const RUN_LIMIT_MS = 30_000;

const benchmarksDirectory = fileURLToPath(new URL('..', import.meta.url));
const workersProgram = fileURLToPath(new URL('./pgBossWorkers.ts', import.meta.url));

/** Runs of both sides: per second, and the statements the store ran per answer. */
export interface ThroughputSamples {
  store: number[];
  pgBoss: number[];
  storeStatements: number[];
  /** What the hosts ran in every timed store run (all three hosts' counts per run). */
  storeCounts: StatementCount[];
}

/** The pg-boss child: one run per call, stopped by close. */
async function startPgBoss(connectionString: string) {
  const args = ['-y', '-p', 'node@22', 'node', '--import', 'tsx', workersProgram];
  const child = spawn('npx', [...args, connectionString, String(HOSTS), String(LOOPS)], {
    cwd: benchmarksDirectory,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ended = exited.then(() => Promise.reject(new Error('the pg-boss child process ended')));
  ended.catch(() => {});
  /** Its next line that is "ready" or JSON (npx may print other lines). */
  const next = async (): Promise<string> => {
    for (;;) {
      const line = await Promise.race([lines.next(), ended]);
      if (line.done === true) throw new Error('the pg-boss child closed its output');
      if (line.value === 'ready' || line.value.startsWith('{')) return line.value;
    }
  };
  try {
    const first = await bounded(next(), RUN_LIMIT_MS, 'starting pg-boss on Node 22');
    if (first !== 'ready') throw new Error('the pg-boss child did not start');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    async run(jobs: number): Promise<PgBossRun> {
      child.stdin.write(`${jobs}\n`);
      const run = JSON.parse(await bounded(next(), RUN_LIMIT_MS, 'a pg-boss run')) as PgBossRun;
      if (run.completed !== jobs) throw new Error(`pg-boss completed ${run.completed} of ${jobs}`);
      return run;
    },
    async close(): Promise<void> {
      child.stdin.end();
      await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/** One run of the store: each host asks a third, the next host answers them, all at once. */
async function storeRun(inboxes: StoreInbox[], counters: CountingDriver[], run: string) {
  const perHost = QUEUE_ANSWERS / inboxes.length;
  const asked = inboxes.map((_, host) =>
    Array.from({ length: perHost }, (_, index) => question(`${run}-h${host}-${index}`)),
  );
  const waits = asked.flatMap((requests, host) =>
    requests.map((request) => inboxes[host]!.waitFor(request)),
  );
  const all = asked.flat();
  await Promise.all(
    inboxes.map((inbox) =>
      until(inbox, () => all.every((request) => inbox.get(request.id) !== undefined)),
    ),
  );
  for (const counter of counters) counter.reset();
  const start = performance.now();
  const submitted = asked.flatMap((requests, host) =>
    requests.map((request) => inboxes[(host + 1) % inboxes.length]!.submit(accept(request))),
  );
  const [won, resumed] = await Promise.all([Promise.all(submitted), Promise.all(waits)]);
  const seconds = (performance.now() - start) / 1000;
  if (!won.every(Boolean) || !resumed.every((answer) => answer.ok))
    throw new Error('an answer was lost');
  const counts = counters.map((counter) => counter.read());
  const statements = counts.reduce((total, count) => total + count.statements, 0);
  return { perSecond: QUEUE_ANSWERS / seconds, statements: statements / QUEUE_ANSWERS, counts };
}

/** Both sides on one server: the store in database `storeUrl`, pg-boss in `pgBossUrl`. */
export async function sampleThroughput(
  storeUrl: string,
  pgBossUrl: string,
): Promise<ThroughputSamples> {
  const counters: CountingDriver[] = [];
  const hosts: Store[] = [];
  for (const instance of ['a', 'b', 'c'].slice(0, HOSTS)) {
    const counter = countingDriver(await postgresDriver({ connectionString: storeUrl }));
    counters.push(counter);
    hosts.push(await createStore({ driver: counter.driver, instance, pollMs: 0 }));
  }
  const boss = await startPgBoss(pgBossUrl);
  const samples: ThroughputSamples = {
    store: [],
    pgBoss: [],
    storeStatements: [],
    storeCounts: [],
  };
  try {
    const inboxes = await Promise.all(hosts.map((host) => host.inbox('throughput')));
    await bounded(storeRun(inboxes, counters, 'warm'), RUN_LIMIT_MS, 'a store run');
    await boss.run(QUEUE_ANSWERS);
    for (let run = 0; run < THROUGHPUT_RUNS; run++) {
      const storeSide = async () => {
        const result = await bounded(
          storeRun(inboxes, counters, `r${run}`),
          RUN_LIMIT_MS,
          'a store run',
        );
        samples.store.push(result.perSecond);
        samples.storeStatements.push(result.statements);
        samples.storeCounts.push(...result.counts);
      };
      const pgBossSide = async () =>
        void samples.pgBoss.push(QUEUE_ANSWERS / (await boss.run(QUEUE_ANSWERS)).seconds);
      // Alternating which side goes first, so neither always follows the other.
      for (const side of run % 2 === 0 ? [storeSide, pgBossSide] : [pgBossSide, storeSide])
        await side();
    }
  } finally {
    await boss.close();
    await Promise.all(hosts.map((host) => host.close()));
  }
  return samples;
}
