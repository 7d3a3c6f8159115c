/**
 * Part of the store-queue benchmark: how long a host takes to claim a durable call as
 * `waitfor_calls` grows to 1,000, 100,000 and 1,000,000 ended calls (filled with INSERT … SELECT
 * generate_series, then VACUUM ANALYZE, as autovacuum would leave it). Two claims per size: a host's
 * `durableCalls(...).work()` when nothing is ready (one claimCall statement finding nothing — what
 * every host runs on each notice and poll), and the claimCall statement itself (the SQL text the
 * store exports) taking the one call that is ready.
 */
import { accept } from '@waitfor/core';
import { attachWaitFor } from '@waitfor/mcp-bridge';
import { createStore, postgresDriver, type Driver, type Store } from '@waitfor/store';
import { callStatements } from '../../packages/store/src/calls/callSql';
import { namesOf } from '../../packages/store/src/names';
import { connectInMemory, neverAsked } from './benchServer';
import { bounded } from './bounded';
import { until } from './inboxQuestions';

/** Ended calls in the table at each measurement. */
export const CLAIM_SIZES = [1_000, 100_000, 1_000_000] as const;
/** Timed claims per size and kind (fewer if SAMPLE_MS runs out first), after WARMUP untimed. */
export const EMPTY_CLAIMS = 100;
export const READY_CLAIMS = 40;
const WARMUP = 5;
const SAMPLE_MS = 12_000;
/** One claim, or making one call ready, that takes longer than this fails the part. */
const STEP_LIMIT_MS = 10_000;
const INSTANCE = 'claimer';
/** The claims this benchmark takes are held this long, so none is claimable again. */
const LEASE_MS = 3_600_000;
/** The statement a host claims a call with, in the default schema (the store's own text). */
const { claimCall } = callStatements(namesOf());

/** The claims timed at one size, and what the planner chose for the statement there. */
export interface ClaimSamples {
  rows: number;
  empty: number[];
  ready: number[];
  /** The scans of claimCall's plan: "Seq Scan on waitfor_calls", "Index Scan using … on …". */
  plan: string;
}

/** Adds ended calls numbered `from`…`to` (complete, with a result), then VACUUM ANALYZE. */
async function fill(driver: Driver, from: number, to: number): Promise<void> {
  await driver.query(
    `INSERT INTO waitfor_calls (call_id, scope, server_key, state, result, created_by, created_at, ended_at)
     SELECT 'ended-' || g, 'bench', 'bench', 'complete', '{"content":[]}', 'filler',
       now() - interval '1 day' + g * interval '1 millisecond', now()
     FROM generate_series($1::integer, $2::integer) AS g`,
    [from, to],
  );
  await driver.query('VACUUM ANALYZE waitfor_calls');
}

/** The scan nodes of a plan (EXPLAIN FORMAT JSON), outermost first. */
function scans(node: Record<string, unknown>): string[] {
  const type = String(node['Node Type']);
  const own = type.endsWith('Scan')
    ? [
        `${type}${node['Index Name'] ? ` using ${String(node['Index Name'])}` : ''}` +
          `${node['Relation Name'] ? ` on ${String(node['Relation Name'])}` : ''}`,
      ]
    : [];
  const children = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [...own, ...children.flatMap(scans)];
}

/**
 * Times `task` up to `count` times (WARMUP untimed first), stopping early after SAMPLE_MS;
 * `prepare` runs untimed before each.
 */
async function timed(
  count: number,
  task: () => Promise<unknown>,
  prepare: () => Promise<unknown> = async () => {},
): Promise<number[]> {
  const times: number[] = [];
  const begin = performance.now();
  for (let index = 0; times.length < count && performance.now() - begin < SAMPLE_MS; index++) {
    await bounded(prepare(), STEP_LIMIT_MS, 'making a call ready');
    const start = performance.now();
    await bounded(task(), STEP_LIMIT_MS, 'a claim');
    if (index >= WARMUP) times.push(performance.now() - start);
  }
  return times;
}

/** A call made on `store` (which does not work) and answered: one ready call in the table. */
async function readyCall(store: Store, make: ReturnType<Store['durableCalls']>): Promise<string> {
  const started = await make.callTool('claims', 'bench', { name: 'confirm' });
  if (started.status !== 'waiting') throw new Error('the confirm call did not wait');
  const inbox = await store.inbox('claims');
  try {
    await until(inbox, () => inbox.getSnapshot().length > 0);
    if (!(await inbox.submit(accept(inbox.getSnapshot()[0]!, { confirm: true }))))
      throw new Error(`the question of ${started.callId} was not answered`);
  } finally {
    inbox.close();
  }
  return started.callId;
}

/** Measures both claims at `rows` ended calls. */
async function atSize(driver: Driver, store: Store, rows: number): Promise<ClaimSamples> {
  // Durable calls ask no one in process: the bridge's waitFor is never called.
  const connection = await connectInMemory(
    'modern',
    { capabilities: { elicitation: { form: {} } } },
    (client) => attachWaitFor(client, { waitFor: neverAsked, modes: ['form'] }),
  );
  try {
    const clientFor = () => connection.bridge!;
    const worker = store.durableCalls({ clientFor, leaseMs: LEASE_MS });
    const empty = await timed(EMPTY_CLAIMS, () => worker.work());
    worker.close();
    const make = store.durableCalls({ clientFor, work: false });
    let callId = '';
    const ready = await timed(
      READY_CLAIMS,
      async () => {
        const [row] = await driver.query(claimCall, [INSTANCE, LEASE_MS]);
        if (row?.call_id !== callId)
          throw new Error(`claimed ${String(row?.call_id)}, not the ready call ${callId}`);
      },
      async () => (callId = await readyCall(store, make)),
    );
    make.close();
    const [explained] = await driver.query(`EXPLAIN (FORMAT JSON) ${claimCall}`, [
      INSTANCE,
      LEASE_MS,
    ]);
    const plan = (Object.values(explained ?? {})[0] as { Plan: Record<string, unknown> }[])[0]!;
    return { rows, empty, ready, plan: scans(plan.Plan).join(', ') };
  } finally {
    await connection.close();
  }
}

/** Claims at each of CLAIM_SIZES ended calls in one database (filled up step by step). */
export async function sampleClaims(connectionString: string): Promise<ClaimSamples[]> {
  const driver = await postgresDriver({ connectionString });
  const store = await createStore({ driver, instance: INSTANCE, pollMs: 0 });
  const samples: ClaimSamples[] = [];
  try {
    let rows = 0;
    for (const size of CLAIM_SIZES) {
      await fill(driver, rows + 1, size);
      rows = size;
      samples.push(await atSize(driver, store, rows));
    }
  } finally {
    await store.close();
  }
  return samples;
}
