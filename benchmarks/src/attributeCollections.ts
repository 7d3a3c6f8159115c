/**
 * Per-call cost of variants sampled side by side, with garbage collections and pauses pooled.
 *
 * Why not the plain sum: measured on these benchmarks, a call allocates ~120–170 KB, so a
 * scavenge runs every ~100 calls and costs ~5 ms; and about one call in fifty stalls for 1–5 ms
 * without any collection (other threads of the process, the kernel, the JIT: nothing the call
 * itself asked for; identical variants see them alike). Together these few calls carry a third of
 * the CPU time, and which call gets them is close to chance, so a plain sum over a few thousand
 * calls moves by ±20% between identical variants. Instead, each variant's cost per call is
 *   its mean over its regular calls (no collection, no pause)
 *   + the collection time of all variants together × its share of the bytes allocated
 *     (a collection is due when the young generation fills, whoever fills it)
 *   + the pause time of all variants together × its share of the regular time
 *     (a stall hits whatever is running, so in proportion to how long each runs).
 * Calls with a collection are recognised by the heap shrinking over them, pauses by costing
 * more than PAUSE_FACTOR times their variant's median call; their time above their variant's
 * regular mean is what goes into the pools.
 */
import type { Sample } from './sampleCalls';

/** What one call of a variant costs, in milliseconds (CPU and wall) and bytes. */
export interface CallCost {
  calls: number;
  /** Calls during which a garbage collection ran (the heap shrank). */
  collections: number;
  /** Calls without a collection that still cost more than PAUSE_FACTOR × the median call. */
  pauses: number;
  /** Bytes allocated per call: mean heap growth over the calls without a collection. */
  allocatedBytes: number;
  /** Mean CPU per call over the regular calls (neither a collection nor a pause). */
  mutatorCpu: number;
  /** Collection CPU per call charged to this variant for its allocations. */
  collectorCpu: number;
  /** Pause CPU per call charged to this variant for the time it ran. */
  pauseCpu: number;
  /** mutatorCpu + collectorCpu + pauseCpu: the figure the ratios compare. */
  cpu: number;
  mutatorWall: number;
  collectorWall: number;
  pauseWall: number;
  /** mutatorWall + collectorWall + pauseWall. */
  wall: number;
  /** The plain means (sum ÷ calls), shown for comparison. */
  rawCpu: number;
  rawWall: number;
}

/**
 * A call without a collection that costs more than this many times its variant's median call is
 * a pause: time the call did not cause (see the module comment).
 */
export const PAUSE_FACTOR = 8;

const sum = (values: readonly number[]): number =>
  values.reduce((total, value) => total + value, 0);
const mean = (values: readonly number[]): number => sum(values) / values.length;

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Per-call costs of every variant sampled together (collections and pauses are shared among them). */
export function attributeCollections(
  samples: Readonly<Record<string, readonly Sample[]>>,
  pauseFactor = PAUSE_FACTOR,
): Record<string, CallCost> {
  const parts = Object.entries(samples).map(([name, calls]) => {
    if (calls.length === 0) throw new RangeError(`no samples of ${name}`);
    const quiet = calls.filter((sample) => sample.heap >= 0);
    const collecting = calls.filter((sample) => sample.heap < 0);
    if (quiet.length === 0) throw new RangeError(`every sample of ${name} ran a collection`);
    const limit = pauseFactor * medianOf(quiet.map((sample) => sample.cpu));
    const regular = quiet.filter((sample) => sample.cpu <= limit);
    const pausing = quiet.filter((sample) => sample.cpu > limit);
    const mutatorCpu = mean(regular.map((sample) => sample.cpu));
    const mutatorWall = mean(regular.map((sample) => sample.wall));
    // Time above the variant's own regular mean; summed without clipping so that calls which
    // happened to be cheap balance those which happened to be dear.
    const excess = (group: readonly Sample[], key: 'cpu' | 'wall', base: number) =>
      sum(group.map((sample) => sample[key] - base));
    return {
      name,
      calls,
      collections: collecting.length,
      pauses: pausing.length,
      mutatorCpu,
      mutatorWall,
      allocatedBytes: mean(quiet.map((sample) => sample.heap)),
      collectorCpu: excess(collecting, 'cpu', mutatorCpu),
      collectorWall: excess(collecting, 'wall', mutatorWall),
      pauseCpu: excess(pausing, 'cpu', mutatorCpu),
      pauseWall: excess(pausing, 'wall', mutatorWall),
    };
  });
  // Shares per call: a variant's bytes per call ÷ all bytes allocated, its regular time per call
  // ÷ all regular time; times a pool, they give that variant's part of the pool per call.
  const allocatedTotal = sum(parts.map((part) => part.allocatedBytes * part.calls.length));
  const cpuTotal = sum(parts.map((part) => part.mutatorCpu * part.calls.length));
  const wallTotal = sum(parts.map((part) => part.mutatorWall * part.calls.length));
  const share = (value: number, total: number) => (total > 0 ? value / total : 0);
  const pool = (key: 'collectorCpu' | 'collectorWall' | 'pauseCpu' | 'pauseWall') =>
    sum(parts.map((part) => part[key]));
  const pools = {
    collectorCpu: pool('collectorCpu'),
    collectorWall: pool('collectorWall'),
    pauseCpu: pool('pauseCpu'),
    pauseWall: pool('pauseWall'),
  };
  return Object.fromEntries(
    parts.map((part) => {
      const bytes = share(part.allocatedBytes, allocatedTotal);
      const collectorCpu = pools.collectorCpu * bytes;
      const collectorWall = pools.collectorWall * bytes;
      const pauseCpu = pools.pauseCpu * share(part.mutatorCpu, cpuTotal);
      const pauseWall = pools.pauseWall * share(part.mutatorWall, wallTotal);
      const cost: CallCost = {
        calls: part.calls.length,
        collections: part.collections,
        pauses: part.pauses,
        allocatedBytes: part.allocatedBytes,
        mutatorCpu: part.mutatorCpu,
        collectorCpu,
        pauseCpu,
        cpu: part.mutatorCpu + collectorCpu + pauseCpu,
        mutatorWall: part.mutatorWall,
        collectorWall,
        pauseWall,
        wall: part.mutatorWall + collectorWall + pauseWall,
        rawCpu: mean(part.calls.map((sample) => sample.cpu)),
        rawWall: mean(part.calls.map((sample) => sample.wall)),
      };
      return [part.name, cost];
    }),
  );
}
