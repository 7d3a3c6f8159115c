/** Figures of two variants measured side by side (benchmarks 1 and 2). */
import { ms, times } from './format';
import { extraCostByOrigin } from './profile';
import type { Figure } from './result';
import { median, type PairedCosts } from './stats';

/** Names and the budget of a paired comparison. */
export interface PairedLabels {
  a: string;
  b: string;
  /** The ratio's name, e.g. "bridge ÷ SDK loop". */
  ratio: string;
  budget: number;
}

const list = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(', ');

/**
 * Per-call medians of both variants (wall and CPU) and both ratios. The budget applies to the CPU
 * ratio: everything runs in one process over an in-memory transport, so CPU time is the work the
 * library does, and it stays put when other processes load the machine; the wall ratio is shown
 * beside it and matches it on a quiet machine.
 */
export function pairedFigures(
  costs: PairedCosts,
  callsPerRun: number,
  labels: PairedLabels,
): { figures: Figure[]; overBudget: string | undefined } {
  const runs = costs.a.length;
  const perCall = (values: number[]) => median(values) / callsPerRun;
  const wallA = perCall(costs.a.map((cost) => cost.wall));
  const wallB = perCall(costs.b.map((cost) => cost.wall));
  const cpuA = perCall(costs.a.map((cost) => cost.cpu));
  const cpuB = perCall(costs.b.map((cost) => cost.cpu));
  const cpuRatio = median(costs.cpuRatios);
  const wallRatio = median(costs.wallRatios);
  const budget = { max: labels.budget, label: `≤ ${labels.budget.toFixed(2)}` };
  const figures: Figure[] = [
    {
      name: `${labels.a}: wall per call`,
      value: wallA,
      unit: 'ms',
      runs,
      detail: `CPU ${ms(cpuA)}`,
    },
    {
      name: `${labels.b}: wall per call`,
      value: wallB,
      unit: 'ms',
      runs,
      detail: `CPU ${ms(cpuB)}`,
    },
    {
      name: `${labels.ratio} (CPU time)`,
      value: cpuRatio,
      unit: '×',
      runs,
      budget,
      detail: `per-run ${list(costs.cpuRatios)}`,
    },
    {
      name: `${labels.ratio} (wall time)`,
      value: wallRatio,
      unit: '×',
      runs,
      detail: `per-run ${list(costs.wallRatios)}`,
    },
  ];
  // The extra is derived from the paired ratio, not from the two medians: the medians may come
  // from different runs, the ratio compares each run's two variants under the same conditions.
  const overBudget =
    cpuRatio > labels.budget
      ? `${labels.ratio} is ${times(cpuRatio)} in CPU time (wall ${times(wallRatio)}), over the ` +
        `${budget.label} budget: ${labels.a} burns about ${ms((cpuRatio - 1) * cpuB)} more CPU ` +
        `per call than ${labels.b} (median ${ms(cpuB)} per call); within budget it could add at ` +
        `most ${ms((labels.budget - 1) * cpuB)}.`
      : undefined;
  return { figures, overBudget };
}

/**
 * A sentence naming where variant a spends its extra CPU per call, from a CPU profile of both
 * variants (the profiler inflates all figures a little, alike for both).
 */
export async function explainExtraCost(
  calls: number,
  a: (calls: number) => Promise<unknown>,
  b: (calls: number) => Promise<unknown>,
): Promise<string> {
  const extra = await extraCostByOrigin(calls, a, b);
  const top = extra
    .slice(0, 6)
    .map((item) => `${item.origin} +${item.microseconds.toFixed(0)} µs`)
    .join(', ');
  // The fix names the largest of our own modules in the profile; garbage-collector time is the
  // price of their allocations, so it is named as a consequence rather than as the cause.
  const ours = extra.find((item) => item.origin.startsWith('@waitfor/'));
  const collector = extra.slice(0, 3).some((item) => item.origin === '(garbage collector)');
  const hint =
    ours === undefined
      ? collector
        ? fixHint('(garbage collector)')
        : undefined
      : `${fixHint(ours.origin)}${collector ? '; allocating less per question also shrinks the garbage-collector share' : ''}`;
  return (
    `CPU profile of ${calls} calls per variant (in alternating segments), extra self time per ` +
    `call by origin: ${top}. Both variants run the same SDK and zod code, so a difference there ` +
    `is indirect (cache and allocation pressure, sampling); the @waitfor modules are the work ` +
    `the bridge adds.` +
    (hint === undefined ? '' : ` What would fix it: ${hint}.`)
  );
}

/** What would shrink the cost of an origin that dominates the overhead. */
function fixHint(origin: string): string {
  if (origin.includes('parseFormSchema'))
    return (
      'parse each requestedSchema once per question and pass the parsed schema on — ' +
      'parseFormSchema recognises only its own frozen copies, so every raw schema handed to ' +
      'formDefaults or validateFormAnswer is checked and deep-copied again; a cache keyed by the ' +
      "schema's JSON text would also serve the same question asked again"
    );
  if (origin.includes('validateFormAnswer') || origin.includes('checkValue'))
    return 'validate against a compiled (cached) form instead of walking the schema per answer';
  if (origin === '(garbage collector)')
    return 'allocate less per question (fewer intermediate Request, context and answer objects)';
  return `make ${origin} cheaper on the per-question path`;
}
