/**
 * Per-call sampling of several variants of one operation, interleaved call by call (benchmarks 1
 * and 2). Each call is a sample of its CPU time, wall time and heap growth, so the statistics in
 * attributeCollections can tell the calls that paid for a garbage collection from those that did not.
 */
import { getHeapStatistics } from 'node:v8';
import { collectGarbage, now } from './stats';

/** What one call cost. */
export interface Sample {
  /** User + system CPU milliseconds of this process (all its threads) during the call. */
  cpu: number;
  /** Wall-clock milliseconds of the call. */
  wall: number;
  /**
   * Growth of the used heap over the call, in bytes: the bytes it allocated, or negative when a
   * garbage collection ran during it and freed more than the call allocated.
   */
  heap: number;
}

/** Measure one call. */
export async function sampleOf(task: () => Promise<unknown>): Promise<Sample> {
  // The heap is read outside the timed window; the CPU clock innermost, so the two clock reads
  // cost every variant the same few microseconds.
  const heapBefore = getHeapStatistics().used_heap_size;
  const start = now();
  const cpuBefore = process.cpuUsage();
  await task();
  const cpu = process.cpuUsage(cpuBefore);
  const wall = now() - start;
  const heap = getHeapStatistics().used_heap_size - heapBefore;
  return { cpu: (cpu.user + cpu.system) / 1000, wall, heap };
}

/** Every ordering of `items` (n! of them; meant for two to four variants). */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [
      item,
      ...rest,
    ]),
  );
}

/** How to sample variants side by side. */
export interface SampleCallsOptions {
  /** One call of each variant, by name. */
  variants: Record<string, () => Promise<unknown>>;
  runs: number;
  /** Timed rounds per run; a round calls every variant once. */
  roundsPerRun: number;
  /** Untimed rounds before the first run (JIT warm-up). */
  warmUpRounds: number;
  /**
   * Untimed rounds after the collection that starts each run: the sweeping and recompilation that
   * follow a full collection would otherwise land on the first timed calls.
   */
  settleRounds: number;
}

/** Samples per variant name, one array per run. */
export type RunSamples = Record<string, Sample[][]>;

/**
 * Sample the variants call by call. Each round calls every variant once, in an order that cycles
 * through every permutation, so no variant systematically follows another (whose leftover work,
 * such as a promise settling after the result arrived, would land on it) and a burst of load from
 * elsewhere on the machine hits all of them nearly alike. Each run starts with a full collection
 * and a few settling rounds, so the heap does not grow from run to run.
 */
export async function sampleCalls(options: SampleCallsOptions): Promise<RunSamples> {
  const names = Object.keys(options.variants);
  const orders = permutations(names);
  const call = (name: string) => options.variants[name]!();
  let round = 0;
  const untimed = async (rounds: number) => {
    for (let index = 0; index < rounds; index++)
      for (const name of orders[round++ % orders.length]!) await call(name);
  };
  const result: RunSamples = Object.fromEntries(names.map((name) => [name, []]));
  await untimed(options.warmUpRounds);
  for (let run = 0; run < options.runs; run++) {
    collectGarbage();
    await untimed(options.settleRounds);
    const samples: Record<string, Sample[]> = Object.fromEntries(names.map((name) => [name, []]));
    for (let index = 0; index < options.roundsPerRun; index++) {
      for (const name of orders[round++ % orders.length]!) {
        samples[name]!.push(await sampleOf(() => call(name)));
      }
    }
    for (const name of names) result[name]!.push(samples[name]!);
  }
  return result;
}
