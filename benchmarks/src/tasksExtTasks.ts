/**
 * Tasks: how soon a person's answer acts, waitfor against the official requester
 * `@modelcontextprotocol/ext-tasks` 0.2.2, on one 2026-07-28 Tasks server (the conformance-checked
 * fixture of the bridge's tests) in one run. Each call is `ask_region` (one form key): the person
 * answers — at once (in the same turn as the question arrives), or after a 20 ms pause, as a person
 * or a policy answering later would — and two latencies are taken from that moment: until the
 * server has received the `tasks/update` carrying it (its own log's clock, same process), and until
 * the caller holds the task's final result (which needs the next poll after the task completes).
 * Calls alternate between the two requesters, run by run in alternating order, on connections
 * opened once.
 */
import type { WaitFor } from '@waitfor/core';
import { connect } from '@waitfor/mcp-bridge/node';
import {
  openExtTasks,
  type ExtInputHandler,
} from '../../packages/mcp-bridge/src/__fixtures__/extTasksHost';
import {
  startTasksServer,
  type TasksServer,
} from '../../packages/mcp-bridge/src/__fixtures__/tasksServer';
import { ms, times } from './format';
import type { BenchResult, Figure } from './result';
import { collectGarbage, median, now, sleep } from './stats';

/** Runs, and calls per requester per run. */
export const RUNS = 7;
export const CALLS_PER_RUN = 6;
/** How long the person takes: at once, and after a pause. */
export const THINK_MS = [0, 20] as const;
/** The fixture's `pollIntervalMs` (the bridge's lower bound): both requesters poll at it. */
const POLL_MS = 50;
const TOOL = 'ask_region';
const EXPECTED = 'region=eu-west';

interface Sample {
  /** answer → the server received the tasks/update carrying it. */
  update: number;
  /** answer → the caller holds the final result. */
  result: number;
}

/** When the person answered, per task id (both requesters tell the handler the task). */
type Answered = Map<string, number>;

function sampleOf(server: TasksServer, answered: Answered, taskId: string, doneAt: number): Sample {
  const answeredAt = answered.get(taskId);
  let update: TasksServer['log'][number] | undefined;
  for (let index = server.log.length - 1; index >= 0 && update === undefined; index--) {
    const entry = server.log[index]!;
    if (entry.method === 'tasks/update' && entry.params.taskId === taskId) update = entry;
  }
  if (answeredAt === undefined || update === undefined)
    throw new Error(`task ${taskId}: no answer or no tasks/update seen`);
  answered.delete(taskId);
  return { update: update.at - answeredAt, result: doneAt - answeredAt };
}

const textOf = (result: unknown) =>
  ((result as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text;

/** The two requesters, each set up once; each call runs one ask_region, answered after `think` ms. */
async function requesters(server: TasksServer) {
  const answered: Answered = new Map();
  let think = 0;
  const pause = () => (think > 0 ? sleep(think) : undefined);
  const extAnswer: ExtInputHandler = async (_request, context) => {
    await pause();
    answered.set(context.taskId ?? '', now());
    return { action: 'accept', content: { region: 'eu-west' } } as never;
  };
  const ext = await openExtTasks(server.url, extAnswer);
  let waitforTask = '';
  const waitFor: WaitFor = async (request) => {
    waitforTask = String((request.data?.origin as { taskId?: string } | undefined)?.taskId);
    await pause();
    answered.set(waitforTask, now());
    return { id: request.id, ok: true, data: { region: 'eu-west' } };
  };
  const waitfor = await connect({ url: server.url }, { waitFor, era: 'modern' });
  const check = (result: unknown) => {
    if (textOf(result) !== EXPECTED) throw new Error(`Unexpected result ${JSON.stringify(result)}`);
  };
  return {
    think: (ms: number) => void (think = ms),
    'ext-tasks': async (): Promise<Sample> => {
      const { taskId, result } = await ext.call(TOOL);
      const doneAt = now();
      check(result);
      return sampleOf(server, answered, taskId, doneAt);
    },
    waitfor: async (): Promise<Sample> => {
      const result = await waitfor.callTool(
        { name: TOOL, arguments: {} },
        { signal: AbortSignal.timeout(30_000) },
      );
      const doneAt = now();
      check(result);
      return sampleOf(server, answered, waitforTask, doneAt);
    },
    close: async () => {
      await ext.close();
      await waitfor.close();
    },
  };
}

type Variant = 'waitfor' | 'ext-tasks';

type Samples = Record<`${Variant}:${number}`, Sample[]>;

function figures(samples: Samples, thinkMs: number, out: Figure[], notes: string[]): void {
  const runs = RUNS * CALLS_PER_RUN;
  const when = thinkMs === 0 ? 'answered at once' : `answered after ${thinkMs} ms`;
  for (const [what, step] of [
    ['update', 'answer → tasks/update received'],
    ['result', 'answer → task result returned'],
  ] as const) {
    const label = `${step} (${when})`;
    const ours = median(samples[`waitfor:${thinkMs}`]!.map((sample) => sample[what]));
    const theirs = median(samples[`ext-tasks:${thinkMs}`]!.map((sample) => sample[what]));
    const ratio = ours / theirs;
    out.push({
      name: `${label}: waitfor ÷ ext-tasks`,
      value: ratio,
      unit: '×',
      runs,
      budget: { max: 1, label: '≤ 1.00' },
      detail: `median waitfor ${ms(ours)}, ext-tasks ${ms(theirs)}`,
    });
    if (ratio > 1) {
      notes.push(
        `${label}: waitfor takes ${times(ratio)} ext-tasks' time (${ms(ours)} against ${ms(theirs)}).`,
      );
    }
  }
}

/** Run the Tasks comparison. */
export async function benchTasksExtTasks(): Promise<BenchResult> {
  const server = await startTasksServer({ pollInterval: POLL_MS });
  const variants = await requesters(server);
  const samples = {} as Samples;
  try {
    // Warm-up, not counted.
    await variants.waitfor();
    await variants['ext-tasks']();
    for (let run = 0; run < RUNS; run++) {
      collectGarbage();
      const order: Variant[] = run % 2 === 0 ? ['waitfor', 'ext-tasks'] : ['ext-tasks', 'waitfor'];
      for (const thinkMs of run % 2 === 0 ? THINK_MS : [...THINK_MS].reverse()) {
        variants.think(thinkMs);
        for (let call = 0; call < CALLS_PER_RUN; call++) {
          for (const variant of order) {
            (samples[`${variant}:${thinkMs}`] ??= []).push(await variants[variant]());
          }
        }
      }
    }
  } finally {
    await variants.close();
    await server.close();
  }
  const out: Figure[] = [];
  const notes: string[] = [];
  for (const thinkMs of THINK_MS) figures(samples, thinkMs, out, notes);
  return {
    id: 'tasks-ext-tasks',
    title: 'Tasks: answer → tasks/update and → result, waitfor vs ext-tasks 0.2.2',
    method:
      `One 2026-07-28 Tasks server (the fixture that passes the conformance suite's tasks-* ` +
      `scenarios) polled at ${POLL_MS} ms; ${TOOL} (one form key) answered at once and after ` +
      `${THINK_MS[1]} ms; ${RUNS} runs × ${CALLS_PER_RUN} calls per requester and pause, ` +
      `interleaved, connections opened once; medians of the ` +
      `time from the answer to the server's receipt of its tasks/update and to the caller's result.`,
    figures: out,
    notes,
  };
}
