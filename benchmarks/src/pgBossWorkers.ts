/**
 * Child program of the store-queue benchmark, run on Node 22 (pg-boss 12 needs Node ≥ 22.12):
 * `node --import tsx src/pgBossWorkers.ts <connection string> <workers> <loops per worker>`.
 * Starts `workers` pg-boss instances (each its own pool of `loops` connections) on one queue and
 * prints "ready". Each stdin line "<n>" is one run: n jobs inserted (untimed), then every worker
 * drains the queue with `loops` concurrent fetch → complete loops (pg-boss's own statements, one
 * job per fetch, no polling delay), timed until the last job is completed; the run's figures are
 * printed as one JSON line. Stdin closed: the instances stop and the process ends.
 */
import { createInterface } from 'node:readline';
import { PgBoss } from 'pg-boss';

const QUEUE = 'bench';

/** What one run reports back to the benchmark. */
export interface PgBossRun {
  seconds: number;
  completed: number;
}

/** Fetches and completes one job at a time until the queue is empty; the count completed. */
async function drain(boss: PgBoss): Promise<number> {
  let completed = 0;
  for (;;) {
    const [job] = await boss.fetch(QUEUE);
    if (job === undefined) return completed;
    await boss.complete(QUEUE, job.id);
    completed++;
  }
}

/** One run: `jobs` jobs inserted, then drained by every instance's loops at once. */
async function run(bosses: PgBoss[], loops: number, jobs: number): Promise<PgBossRun> {
  await bosses[0]!.insert(
    QUEUE,
    Array.from({ length: jobs }, (_, index) => ({ data: { index } })),
  );
  const start = performance.now();
  const counts = await Promise.all(
    bosses.flatMap((boss) => Array.from({ length: loops }, () => drain(boss))),
  );
  const seconds = (performance.now() - start) / 1000;
  return { seconds, completed: counts.reduce((total, count) => total + count, 0) };
}

async function main(): Promise<void> {
  const [connectionString, workersArg, loopsArg] = process.argv.slice(2);
  const workers = Number(workersArg);
  const loops = Number(loopsArg);
  if (!connectionString || !(workers >= 1) || !(loops >= 1))
    throw new Error('usage: pgBossWorkers.ts <connection string> <workers> <loops per worker>');
  const bosses: PgBoss[] = [];
  for (let index = 0; index < workers; index++) {
    const boss = new PgBoss({ connectionString, max: loops });
    boss.on('error', (error: unknown) => process.stderr.write(`pg-boss: ${String(error)}\n`));
    await boss.start();
    bosses.push(boss);
  }
  await bosses[0]!.createQueue(QUEUE);
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const jobs = Number(line);
    if (!(jobs >= 1)) throw new Error(`not a job count: ${line}`);
    process.stdout.write(`${JSON.stringify(await run(bosses, loops, jobs))}\n`);
  }
  await Promise.all(bosses.map((boss) => boss.stop({ graceful: false })));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
