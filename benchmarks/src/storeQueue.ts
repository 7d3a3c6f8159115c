/**
 * Benchmark — the store as a queue, each figure against a baseline measured in the same run on
 * the same PostgreSQL (Debian's server, started by the store's own test harness): answers per
 * second with three hosts against pg-boss completing as many jobs with three workers; a durable
 * call answered on one host, resumed on another and its result read, against one UPDATE plus one
 * raw NOTIFY → LISTEN round trip; and claiming a call as `waitfor_calls` grows to a million rows.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startPostgres } from '../../packages/store/src/__fixtures__/postgresServer';
import { statementsPer, type StatementCount } from './countingDriver';
import { ms, times } from './format';
import type { BenchResult, Figure } from './result';
import {
  CLAIM_SIZES,
  EMPTY_CLAIMS,
  READY_CLAIMS,
  sampleClaims,
  type ClaimSamples,
} from './storeClaims';
import { RESUMES, sampleResumes, type ResumeSamples } from './storeResume';
import {
  HOSTS,
  LOOPS,
  QUEUE_ANSWERS,
  sampleThroughput,
  THROUGHPUT_RUNS,
  type ThroughputSamples,
} from './storeThroughput';
import { median, quantile } from './stats';

/** Budgets: the store's time per answer ≤ pg-boss's per job; the trip ≤ 2× its floor; flat claims. */
const budgets = {
  throughput: { max: 1, label: '≤ 1.00' },
  resume: { max: 2, label: '≤ 2.00' },
  claims: { max: 2, label: '≤ 2.00' },
};

const pgBossVersion = (): string => {
  const manifest = createRequire(import.meta.url).resolve('pg-boss/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
};

const range = (values: readonly number[], format: (value: number) => string) =>
  `${format(Math.min(...values))}–${format(Math.max(...values))}`;
const perSecond = (value: number) => `${Math.round(value)}/s`;
const within = (figure: Figure) => figure.budget === undefined || figure.value <= figure.budget.max;

/** The throughput figures, and the note when the store is slower than pg-boss. */
function throughputFigures(samples: ThroughputSamples, notes: string[]): Figure[] {
  const store = median(samples.store);
  const pgBoss = median(samples.pgBoss);
  const perRun = samples.store.map((value, run) => samples.pgBoss[run]! / value);
  const statements = median(samples.storeStatements);
  const ratio: Figure = {
    name: 'time per answer: store ÷ pg-boss per job (goal: answers/s ≥ pg-boss jobs/s)',
    value: pgBoss / store,
    unit: '×',
    runs: THROUGHPUT_RUNS,
    budget: budgets.throughput,
    detail: `the store answers ${times(store / pgBoss)} as many per second as pg-boss completes; per run ${range(perRun, times)}`,
  };
  if (!within(ratio))
    notes.push(
      `The store answered ${perSecond(store)} against pg-boss's ${perSecond(pgBoss)} (medians of ${THROUGHPUT_RUNS} alternating runs), ${times(ratio.value)} the time per answer, over the ${budgets.throughput.label} budget. Per answer the three hosts ran ${statements.toFixed(1)} statements in all, where a pg-boss job takes two (fetch, complete): ${statementsPer(samples.storeCounts, THROUGHPUT_RUNS * QUEUE_ANSWERS)}; per-run ratios ${range(perRun, times)}. What the gap buys: a pg-boss \`complete()\` tells nobody, while a store \`submit()\` is true only once the asking host has read the answer (the read that marks it delivered is the statement pg-boss does not have), which is what lets an answerer be told that an answer its dead asker never read did not go through.`,
    );
  return [
    {
      name: `answers per second, store: ${HOSTS} hosts (${QUEUE_ANSWERS} at once)`,
      value: Math.round(store),
      unit: '/s',
      runs: THROUGHPUT_RUNS,
      detail: `per run ${range(samples.store, perSecond)}; ${statements.toFixed(1)} statements per answer`,
    },
    {
      name: `jobs per second, pg-boss ${pgBossVersion()}: ${HOSTS} workers (${QUEUE_ANSWERS} at once)`,
      value: Math.round(pgBoss),
      unit: '/s',
      runs: THROUGHPUT_RUNS,
      detail: `per run ${range(samples.pgBoss, perSecond)}`,
    },
    ratio,
  ];
}

const total = (counts: StatementCount[], key: 'statements' | 'ms' | 'transactions') =>
  median(counts.map((count) => count[key]));

/** The trip figures, and the note on a missed budget: where the store's time goes. */
function resumeFigures(samples: ResumeSamples, notes: string[]): Figure[] {
  const [store, floor] = [median(samples.store), median(samples.floor)];
  const [storeP99, floorP99] = [quantile(samples.store, 0.99), quantile(samples.floor, 0.99)];
  const a = samples.counts.map((count) => count.a);
  const b = samples.counts.map((count) => count.b);
  const ratio = (name: string, value: number, detail: string): Figure => ({
    name,
    value,
    unit: '×',
    runs: RESUMES,
    budget: budgets.resume,
    detail,
  });
  const figures: Figure[] = [
    {
      name: 'answer → resumed across hosts (answered on A, resumed on B, result read on A): median',
      value: store,
      unit: 'ms',
      runs: RESUMES,
      detail: `p99 ${ms(storeP99)}; statements per trip: A ${total(a, 'statements')}, B ${total(b, 'statements')}`,
    },
    {
      name: 'floor: one UPDATE + one NOTIFY → LISTEN round trip between two connections: median',
      value: floor,
      unit: 'ms',
      runs: RESUMES,
      detail: `p99 ${ms(floorP99)}`,
    },
    ratio('answer → resumed ÷ floor (medians)', store / floor, `${ms(store)} vs ${ms(floor)}`),
    ratio(
      'answer → resumed ÷ floor (p99)',
      storeP99 / floorP99,
      `${ms(storeP99)} vs ${ms(floorP99)}`,
    ),
  ];
  const missed = figures.filter((figure) => !within(figure));
  if (missed.length > 0) {
    const statementMs = total(a, 'ms') + total(b, 'ms');
    notes.push(
      `${missed.map((figure) => `${figure.name} is ${times(figure.value)}`).join('; ')}, over the ${budgets.resume.label} budget. The store's trip, median per trip, ran ${total(a, 'statements')} statements on A (the answer; the result comes in the \`done\` notice when it fits, else one read) taking ${ms(total(a, 'ms'))} and ${total(b, 'statements')} on B (the claim, which returns the call's answers, and the finish, which marks them delivered) taking ${ms(total(b, 'ms'))}, plus ${total(a, 'transactions') + total(b, 'transactions')} transactions — about ${ms(statementMs)} of its ${ms(store)} in statements; the rest is two notices (ready to B, done to A) and the in-memory MCP round trip to the server. The floor sends three statements (UPDATE, NOTIFY, the NOTIFY back). Per trip, A ran ${statementsPer(a, RESUMES)}; B ran ${statementsPer(b, RESUMES)}. What is left of the gap: three statements in series where the floor has one (the answer, the claim, the finish); the claim is what makes each resume exactly one host's.`,
    );
  }
  return figures;
}

const rowsLabel = (rows: number) => rows.toLocaleString('en-US');

/** The claim figures per size, the flat-ness ratios, and a note naming the plan on a miss. */
function claimFigures(samples: ClaimSamples[], notes: string[]): Figure[] {
  const kinds = [
    { key: 'empty', label: 'claim with nothing ready (durableCalls().work())' },
    { key: 'ready', label: 'claim the one ready call (claimCall statement)' },
  ] as const;
  const figures: Figure[] = [];
  for (const { key, label } of kinds) {
    for (const size of samples)
      figures.push({
        name: `${label}, ${rowsLabel(size.rows)} ended calls: median`,
        value: median(size[key]),
        unit: 'ms',
        runs: size[key].length,
        detail:
          `p99 ${ms(quantile(size[key], 0.99))}` +
          (key === 'empty' ? `; claimCall's plan: ${size.plan}` : ''),
      });
    const [first, last] = [samples[0]!, samples[samples.length - 1]!];
    const flat: Figure = {
      name: `${label}: ${rowsLabel(last.rows)} ÷ ${rowsLabel(first.rows)} ended calls (flat)`,
      value: median(last[key]) / median(first[key]),
      unit: '×',
      runs: last[key].length,
      budget: budgets.claims,
      detail: `${ms(median(last[key]))} vs ${ms(median(first[key]))}`,
    };
    figures.push(flat);
    if (!within(flat))
      notes.push(
        `${flat.name} is ${times(flat.value)}, over the ${budgets.claims.label} budget: the claim grows with the table. Its plan at ${rowsLabel(last.rows)} rows: ${last.plan} (at ${rowsLabel(first.rows)}: ${first.plan}).`,
      );
  }
  return figures;
}

/** Run the store-queue benchmark. */
export async function benchStoreQueue(): Promise<BenchResult> {
  const server = await startPostgres();
  try {
    for (const database of ['fleet', 'boss', 'resume', 'claims'])
      await server.createDatabase(database);
    const notes: string[] = [];
    // A part that fails is reported as such, and the others still run.
    const part = async <T>(
      name: string,
      sample: () => Promise<T>,
      figures: (samples: T, notes: string[]) => Figure[],
    ): Promise<Figure[]> => {
      try {
        return figures(await sample(), notes);
      } catch (error) {
        notes.push(`${name} could not be measured: ${String(error)}`);
        return [];
      }
    };
    const figures = [
      ...(await part(
        'Throughput against pg-boss',
        () => sampleThroughput(server.url('fleet'), server.url('boss')),
        throughputFigures,
      )),
      ...(await part('Answer → resumed', () => sampleResumes(server.url('resume')), resumeFigures)),
      ...(await part('Claim latency', () => sampleClaims(server.url('claims')), claimFigures)),
    ];
    return {
      id: 'store-queue',
      title: 'Store: a queue as sound as pg-boss',
      method: `One PostgreSQL (Debian's server, fsync off, 127.0.0.1), a database per part; each store host is a createStore instance in this process with its own pg pool (10 connections) and LISTEN connection (pollMs 0: notices only), its statements counted by a wrapping Driver. Throughput: ${QUEUE_ANSWERS} questions, a third asked on each of ${HOSTS} hosts and all answered at once by the next host, timed from the first submit() until every submit() and waitFor() resolved; against pg-boss ${pgBossVersion()} on Node 22 (a child process started by \`npx -y -p node@22\`: pg-boss 12 needs Node ≥ 22.12) with ${HOSTS} PgBoss instances as workers, ${QUEUE_ANSWERS} jobs inserted untimed, then drained by ${LOOPS} concurrent fetch() → complete() loops per instance (its pool's size; one job per fetch, no polling delay), timed until the last complete(); ${THROUGHPUT_RUNS} runs of each after one untimed, alternating which goes first. Answer → resumed: a modern-era durable call (the bench server's \`confirm\` tool over the SDK's in-memory transport) made on host A (durableCalls work: false), its question answered on A, claimed and resumed by host B, the result read on A by result(); timed from submit() until result() resolved; the floor is, on two plain pg connections, one UPDATE of one row and a NOTIFY answered by a NOTIFY from the other connection; ${RESUMES} of each, alternating, after 20 untimed. Claims: \`waitfor_calls\` filled with INSERT … SELECT generate_series of ended (complete) calls to ${CLAIM_SIZES.map(rowsLabel).join(' / ')} rows, VACUUM ANALYZE after each fill; at each size up to ${EMPTY_CLAIMS} durableCalls().work() with nothing ready and up to ${READY_CLAIMS} runs of the store's claimCall statement taking the one ready call (made and answered untimed before each), 5 untimed first, at most 12 s per kind and size; the plan is EXPLAIN of claimCall at that size.`,
      figures,
      notes,
    };
  } finally {
    await server.destroy();
  }
}
