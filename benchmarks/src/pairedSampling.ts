/** How benchmarks 1 and 2 sample their variants, and the sentence that describes it. */
import { PAUSE_FACTOR } from './attributeCollections';
import type { SampleCallsOptions } from './sampleCalls';

/**
 * Runs × rounds: 16 × 1,500 = 24,000 timed calls per variant (72,000 in all), after 1,000
 * untimed rounds of JIT warm-up and 50 settling rounds after each run's full collection. Each
 * variant pays for about 250 scavenges over that many calls, which is what makes its collection
 * share (and so the ratio) stable, and 16 runs give a usable standard error; about 20 s per
 * benchmark on a 2-core machine.
 */
export const PAIRED_SAMPLING: Omit<SampleCallsOptions, 'variants'> = {
  runs: 16,
  roundsPerRun: 1_500,
  warmUpRounds: 1_000,
  settleRounds: 50,
};

/** Calls per variant profiled when the budget is missed. */
export const PROFILED_CALLS = 3_000;

/** The method sentence of a comparison; `calls` says what one call is, `runs` how many runs it takes. */
export function comparisonMethod(calls: string, runs = PAIRED_SAMPLING.runs): string {
  const { roundsPerRun, warmUpRounds, settleRounds } = PAIRED_SAMPLING;
  return (
    `Three variants — the bridge (a), the baseline (b) and the baseline again on a second ` +
    `identical connection (the A/A control) — interleaved call by call (${calls}), the order ` +
    `within each round cycling through all six permutations: ${runs} runs × ` +
    `${roundsPerRun.toLocaleString('en-US')} rounds = ` +
    `${(runs * roundsPerRun).toLocaleString('en-US')} timed calls per variant, after ` +
    `${warmUpRounds.toLocaleString('en-US')} untimed rounds of warm-up; each run starts with a ` +
    `full garbage collection and ${settleRounds} untimed rounds to settle. Every call is timed on ` +
    `its own (CPU, wall, heap growth). A variant's cost per call is its mean over regular calls, ` +
    `plus the collection time of all three variants (calls over which the heap shrank) shared ` +
    `by the bytes each allocated, plus their pause time (calls without a collection costing ` +
    `over ${PAUSE_FACTOR}× their variant's median) shared by the regular time each ran; ` +
    `ratios divide these costs pooled over ` +
    `all runs, shown with two standard errors from the spread of the per-run ratios and the ` +
    `per-run range. The A/A control (control ÷ b) is computed the same way: its distance from 1 ` +
    `is the noise floor of that run. Budgeted on CPU time; a verdict is called conclusive when ` +
    `the ratio is farther from the budget than both three control distances and two standard ` +
    `errors.`
  );
}
