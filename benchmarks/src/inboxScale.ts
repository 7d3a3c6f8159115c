/**
 * Benchmark 4 — inbox scale. For 10,000 and 100,000 open Requests in one `createInbox`: the time
 * to add them all (each `waitFor` call validates its Request and registers it), to answer one, and
 * to take the snapshot a UI reads after a change; and the heap each open Request costs the inbox.
 * The Request objects are built before the heap baseline, so the heap figure is the inbox's own
 * bookkeeping per Request (entry, pending promise, watchers), not the Request the host made anyway.
 */
import { accept, createInbox, type Request } from '@waitfor/core';
import { ms } from './format';
import { collectGarbage, median, timeSync } from './stats';
import type { BenchResult, Figure } from './result';

/** Inbox sizes measured. */
export const SIZES = [10_000, 100_000] as const;
/** Fresh inboxes per size. */
export const RUNS = 5;
/** Answers (and snapshots after them) timed per inbox. */
export const ANSWERS_PER_RUN = 5;

function requests(count: number, run: number): Request[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `r${run}-${index}`,
    kind: 'input',
    prompt: `Question ${index}`,
    data: {
      schema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
      origin: { server: 'bench' },
    },
  }));
}

const heapUsed = () => process.memoryUsage().heapUsed;

interface Sample {
  add: number;
  answers: number[];
  snapshots: number[];
  heapPerRequest: number | undefined;
}

function measure(count: number, run: number): Sample {
  const asked = requests(count, run);
  const inbox = createInbox();
  // A UI is subscribed; it only notes that something changed (React would schedule a render).
  let changes = 0;
  const unsubscribe = inbox.subscribe(() => void changes++);
  const gcAvailable = collectGarbage();
  const before = heapUsed();
  const add = timeSync(() => {
    for (const request of asked) void inbox.waitFor(request);
  });
  const heapPerRequest =
    gcAvailable && collectGarbage() ? (heapUsed() - before) / count : undefined;
  if (inbox.getSnapshot().length !== count) throw new Error('Not every Request was added');
  const answers: number[] = [];
  const snapshots: number[] = [];
  for (let index = 0; index < ANSWERS_PER_RUN; index++) {
    // Answer Requests spread over the inbox, not only the oldest.
    const id = asked[Math.floor(((index + 0.5) * count) / ANSWERS_PER_RUN)]!.id;
    let settled = false;
    answers.push(timeSync(() => (settled = inbox.answer(accept(id, { confirm: true })))));
    if (!settled) throw new Error(`Answer to ${id} did not settle it`);
    snapshots.push(timeSync(() => inbox.getSnapshot()));
  }
  if (inbox.getSnapshot().length !== count - ANSWERS_PER_RUN) throw new Error('Lost a Request');
  if (changes !== count + ANSWERS_PER_RUN)
    throw new Error(`Expected one change per add and answer`);
  unsubscribe();
  return { add, answers, snapshots, heapPerRequest };
}

/** Run benchmark 4. */
export async function benchInboxScale(): Promise<BenchResult> {
  const samples = new Map<number, Sample[]>(SIZES.map((size) => [size, []]));
  measure(1_000, -1);
  for (let run = 0; run < RUNS; run++) {
    for (const size of run % 2 === 0 ? SIZES : [...SIZES].reverse()) {
      samples.get(size)!.push(measure(size, run));
      collectGarbage();
    }
  }
  const figures: Figure[] = [];
  const notes: string[] = [];
  for (const size of SIZES) {
    const list = samples.get(size)!;
    const label = size.toLocaleString('en-US');
    const add = median(list.map((sample) => sample.add));
    figures.push({
      name: `${label} open: add all`,
      value: add,
      unit: 'ms',
      runs: RUNS,
      detail: `${ms(add / size)} per Request`,
    });
    figures.push({
      name: `${label} open: answer one`,
      value: median(list.flatMap((sample) => sample.answers)),
      unit: 'ms',
      runs: RUNS * ANSWERS_PER_RUN,
    });
    figures.push({
      name: `${label} open: snapshot after a change`,
      value: median(list.flatMap((sample) => sample.snapshots)),
      unit: 'ms',
      runs: RUNS * ANSWERS_PER_RUN,
    });
    const heaps = list.flatMap((sample) =>
      sample.heapPerRequest === undefined ? [] : [sample.heapPerRequest],
    );
    if (heaps.length > 0) {
      figures.push({
        name: `${label} open: heap per open Request`,
        value: median(heaps),
        unit: 'bytes',
        runs: heaps.length,
      });
    } else {
      notes.push('Heap per Request not measured: run node with --expose-gc.');
    }
  }
  return {
    id: 'inbox-scale',
    title: '4. Inbox scale (@waitfor/core createInbox)',
    method:
      `${RUNS} fresh inboxes per size (sizes interleaved), one subscribed listener; ` +
      `${ANSWERS_PER_RUN} answers per inbox, each followed by a snapshot; heap from ` +
      `process.memoryUsage() with gc before and after adding.`,
    figures,
    notes,
  };
}
