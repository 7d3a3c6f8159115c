/**
 * Timing helpers shared by every benchmark. Most figures are medians of several runs; benchmarks
 * 1 and 2 sample call by call instead (sampleCalls, attributeCollections).
 */

/** The median of the values (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The standard error of the mean of the values (sample standard deviation ÷ √n): how far the
 * mean of that many runs is likely to be from the mean of infinitely many.
 */
export function standardError(values: readonly number[]): number {
  if (values.length < 2) throw new RangeError('standard error of fewer than two values');
  const mean = values.reduce((total, value) => total + value, 0) / values.length;
  const variance =
    values.reduce((total, value) => total + (value - mean) ** 2, 0) / (values.length - 1);
  return Math.sqrt(variance / values.length);
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

/** The value below which `share` of the values lie (nearest rank). */
export function quantile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}
