/**
 * Timing and statistics shared by every benchmark. Figures are medians of several runs; a ratio is
 * the median of per-run ratios of two variants measured back to back in the same run, with their
 * order alternating between runs so drift on a busy machine hits both.
 */

/** The median of the values (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds from a high-resolution clock. */
export const now = (): number => performance.now();

/** Time one async task in milliseconds. */
export async function timeAsync(task: () => Promise<unknown>): Promise<number> {
  const start = now();
  await task();
  return now() - start;
}

/** Time one synchronous task in milliseconds (nanosecond clock: these tasks can take microseconds). */
export function timeSync(task: () => unknown): number {
  const start = process.hrtime.bigint();
  task();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Wait `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Collect garbage when node runs with --expose-gc (twice: the first pass may only queue finalizers). */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return false;
  gc();
  gc();
  return true;
}

/** Elapsed wall-clock and CPU milliseconds of one piece of work. */
export interface Cost {
  wall: number;
  /** User + system CPU time of this process (all its threads): what the work itself burned. */
  cpu: number;
}

/** Measure the wall-clock and CPU time of one async task. */
export async function costOf(task: () => Promise<unknown>): Promise<Cost> {
  const cpuBefore = process.cpuUsage();
  const start = now();
  await task();
  const wall = now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/** Per-run totals of two variants measured side by side, and their per-run ratios. */
export interface PairedCosts {
  a: Cost[];
  b: Cost[];
  /** a[i] ÷ b[i] per run, for wall and CPU time. */
  wallRatios: number[];
  cpuRatios: number[];
}

/** How to interleave two variants. */
export interface InterleaveOptions {
  runs: number;
  /** Blocks of each variant per run; a run alternates a-block and b-block (swapping who goes first). */
  blocksPerRun: number;
  /** One block of a variant. */
  a: () => Promise<unknown>;
  b: () => Promise<unknown>;
  /** Untimed blocks of each variant before the first run (JIT warm-up); default min(blocksPerRun, 100). */
  warmUpBlocks?: number;
}

/**
 * Measure two variants side by side. Within a run the variants alternate in small blocks, so a
 * burst of load from elsewhere on the machine hits both nearly alike; CPU time is recorded beside
 * wall time because other processes on a shared machine inflate wall time but not this process's
 * CPU time.
 */
export async function interleave(options: InterleaveOptions): Promise<PairedCosts> {
  for (
    let block = 0;
    block < (options.warmUpBlocks ?? Math.min(options.blocksPerRun, 100));
    block++
  ) {
    await options.a();
    await options.b();
  }
  const result: PairedCosts = { a: [], b: [], wallRatios: [], cpuRatios: [] };
  for (let run = 0; run < options.runs; run++) {
    collectGarbage();
    const a: Cost = { wall: 0, cpu: 0 };
    const b: Cost = { wall: 0, cpu: 0 };
    const add = (total: Cost, cost: Cost) => {
      total.wall += cost.wall;
      total.cpu += cost.cpu;
    };
    for (let block = 0; block < options.blocksPerRun; block++) {
      if ((run + block) % 2 === 0) {
        add(a, await costOf(options.a));
        add(b, await costOf(options.b));
      } else {
        add(b, await costOf(options.b));
        add(a, await costOf(options.a));
      }
    }
    result.a.push(a);
    result.b.push(b);
    result.wallRatios.push(a.wall / b.wall);
    result.cpuRatios.push(a.cpu / b.cpu);
  }
  return result;
}
