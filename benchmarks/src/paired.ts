/**
 * Figures of two variants measured side by side with an A/A control (benchmarks 1 and 2): the
 * baseline b is sampled on two identical connections, b and `control`, in the same interleaved
 * run as a, and `control ÷ b` is computed exactly like `a ÷ b`. How far the control lands from 1
 * is the noise floor of the ratio in that run.
 */
import { attributeCollections, type CallCost } from './attributeCollections';
import { kilobytes, ms, times } from './format';
import { selfTimeByOrigin } from './profile';
import type { Figure } from './result';
import type { RunSamples, Sample } from './sampleCalls';
import { standardError } from './stats';

/** The variant names a comparison samples: a, the baseline b, and b again as the A/A control. */
export const VARIANTS = ['a', 'b', 'control'] as const;

/** Names and the budget of a comparison. */
export interface PairedLabels {
  a: string;
  b: string;
  /** The ratio's name, e.g. "bridge ÷ SDK loop". */
  ratio: string;
  budget: number;
}

/** The ratios of a comparison, pooled over all runs and per run. */
export interface PairedRatios {
  /** Per-call costs from all runs pooled. */
  costs: Record<(typeof VARIANTS)[number], CallCost>;
  cpu: number;
  wall: number;
  /** control ÷ b, computed like a ÷ b: the noise floor. */
  controlCpu: number;
  controlWall: number;
  perRun: { cpu: number; wall: number; controlCpu: number; controlWall: number }[];
  /**
   * Two standard errors of the CPU ratio, from the spread of its per-run values: the pooled
   * ratio is likely (about 95%) within this of the ratio many more runs would give.
   */
  cpuUncertainty: number;
}

/** a ÷ b and control ÷ b from samples of the three variants (pooled, and run by run). */
export function pairedRatios(samples: RunSamples): PairedRatios {
  for (const name of VARIANTS)
    if (samples[name] === undefined) throw new RangeError(`no samples of ${name}`);
  const ratiosOf = (costs: Record<string, CallCost>) => ({
    cpu: costs.a!.cpu / costs.b!.cpu,
    wall: costs.a!.wall / costs.b!.wall,
    controlCpu: costs.control!.cpu / costs.b!.cpu,
    controlWall: costs.control!.wall / costs.b!.wall,
  });
  const pooled = attributeCollections(
    Object.fromEntries(VARIANTS.map((name) => [name, samples[name]!.flat()])),
  );
  const runs = samples.a!.length;
  const perRun = Array.from({ length: runs }, (_, run) =>
    ratiosOf(
      attributeCollections(
        Object.fromEntries(
          VARIANTS.map((name): [string, Sample[]] => [name, samples[name]![run]!]),
        ),
      ),
    ),
  );
  return {
    costs: pooled as PairedRatios['costs'],
    ...ratiosOf(pooled),
    perRun,
    cpuUncertainty: runs < 2 ? Infinity : 2 * standardError(perRun.map((run) => run.cpu)),
  };
}

const range = (values: readonly number[]) =>
  `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

/** A per-call cost as a table detail: where the CPU goes and what the call allocates. */
const costDetail = (cost: CallCost) =>
  `wall ${ms(cost.wall)}; allocates ${kilobytes(cost.allocatedBytes)} per call; of the CPU, ` +
  `collection share ${ms(cost.collectorCpu)}, pause share ${ms(cost.pauseCpu)} ` +
  `(${cost.collections} collections, ${cost.pauses} pauses in ${cost.calls.toLocaleString('en-US')} ` +
  `calls); plain mean ${ms(cost.rawCpu)}`;

/**
 * The table figures of a comparison, the note on a miss (set against the A/A control) and a note
 * when a pass stands too close to the budget for this run's uncertainty to call it.
 */
export function pairedFigures(
  ratios: PairedRatios,
  labels: PairedLabels,
): { figures: Figure[]; overBudget: string | undefined; notes: string[] } {
  const runs = ratios.perRun.length;
  const { a, b } = ratios.costs;
  const budget = { max: labels.budget, label: `≤ ${labels.budget.toFixed(2)}` };
  const control = `A/A control: ${labels.b} ÷ itself`;
  const perRun = (key: keyof PairedRatios['perRun'][number]) =>
    `per run ${range(ratios.perRun.map((run) => run[key]))}`;
  const figures: Figure[] = [
    { name: `${labels.a}: CPU per call`, value: a.cpu, unit: 'ms', runs, detail: costDetail(a) },
    { name: `${labels.b}: CPU per call`, value: b.cpu, unit: 'ms', runs, detail: costDetail(b) },
    {
      name: `${labels.ratio} (CPU time)`,
      value: ratios.cpu,
      unit: '×',
      runs,
      budget,
      detail:
        `± ${ratios.cpuUncertainty.toFixed(3)} (2 s.e.); A/A control ${times(ratios.controlCpu)}; ` +
        `${perRun('cpu')}; ratio of plain means ` +
        `${times(a.rawCpu / b.rawCpu)}`,
    },
    {
      name: `${control} (CPU time)`,
      value: ratios.controlCpu,
      unit: '×',
      runs,
      detail: `noise floor of the row above (second identical connection); ${perRun('controlCpu')}`,
    },
    {
      name: `${labels.ratio} (wall time)`,
      value: ratios.wall,
      unit: '×',
      runs,
      detail: `A/A control ${times(ratios.controlWall)}; ${perRun('wall')}`,
    },
    {
      name: `${control} (wall time)`,
      value: ratios.controlWall,
      unit: '×',
      runs,
      detail: `noise floor of the row above; ${perRun('controlWall')}`,
    },
  ];
  const margin = labels.budget - 1;
  const noise = Math.abs(ratios.controlCpu - 1);
  const distance = Math.abs(ratios.cpu - labels.budget);
  // A verdict is conclusive when the ratio stands clear of the budget by more than this run's
  // uncertainty: the larger of three times what the control shows identical code drifting (with a
  // floor: a control of exactly 1 is luck) and two standard errors from the per-run spread.
  const uncertainty = Math.max(3 * Math.max(noise, 0.005), ratios.cpuUncertainty);
  const conclusive = distance > uncertainty;
  const against =
    `against an A/A control of ${times(ratios.controlCpu)} measured the same way in the same ` +
    `run: the ratio is ${distance.toFixed(3)} from the budget, ` +
    (conclusive ? 'beyond' : 'within') +
    ` this run's uncertainty of ${uncertainty.toFixed(3)} (the larger of three times the ` +
    `control's distance from 1, ${noise.toFixed(3)}, and two standard errors from the per-run ` +
    `spread, ${ratios.cpuUncertainty.toFixed(3)}), so`;
  const notes: string[] = [];
  const stalls = pauseExcess(ratios.costs);
  if (stalls.z > 3)
    notes.push(
      `${labels.a} stalled in ${a.pauses} calls where its share of the running time predicts ` +
        `${stalls.expected.toFixed(0)} (${stalls.z.toFixed(1)} standard deviations more): its ` +
        `pauses look like its own cost rather than chance, and sharing them by running time ` +
        `understates it; weigh the ratio of plain means (${times(a.rawCpu / b.rawCpu)}), which ` +
        `charges every pause to the call it fell on, beside it.`,
    );
  if (ratios.cpu <= labels.budget && !conclusive)
    notes.push(
      `${labels.ratio} is ${times(ratios.cpu)} in CPU time, within the ${budget.label} budget, ` +
        `${against} the pass is not conclusive; re-run at a quiet moment.`,
    );
  const overBudget =
    ratios.cpu > labels.budget
      ? `${labels.ratio} is ${times(ratios.cpu)} in CPU time (wall ${times(ratios.wall)}), over ` +
        `the ${budget.label} budget, ${against} ` +
        (conclusive
          ? 'the miss is not noise.'
          : 'this run cannot tell the miss from noise; re-run at a quiet moment.') +
        ` Per call ${labels.a} costs ${ms(a.cpu)} of CPU against ${ms(b.cpu)}: ` +
        `${signedMs(a.mutatorCpu - b.mutatorCpu)} in regular calls, ` +
        `${signedMs(a.collectorCpu - b.collectorCpu)} of collection for the ` +
        `${signedKilobytes(a.allocatedBytes - b.allocatedBytes)} it allocates per call and ` +
        `${signedMs(a.pauseCpu - b.pauseCpu)} of pauses for running longer; within budget it ` +
        `could add at most ${ms(margin * b.cpu)}.`
      : undefined;
  return { figures, overBudget, notes };
}

/**
 * How far a's count of pauses stands above what chance predicts if pauses hit whatever runs
 * (in proportion to each variant's regular running time): z in standard deviations of a
 * binomial count. Sharing pauses by running time is only fair while this stays small.
 */
export function pauseExcess(costs: PairedRatios['costs']): { expected: number; z: number } {
  const variants = Object.values(costs);
  const total = variants.reduce((sum, cost) => sum + cost.pauses, 0);
  const time = (cost: CallCost) => cost.mutatorCpu * cost.calls;
  const share = time(costs.a) / variants.reduce((sum, cost) => sum + time(cost), 0);
  const expected = total * share;
  const deviation = Math.sqrt(total * share * (1 - share));
  return { expected, z: deviation > 0 ? (costs.a.pauses - expected) / deviation : 0 };
}

const signedMs = (value: number) => (value < 0 ? `−${ms(-value)}` : `+${ms(value)}`);
const signedKilobytes = (bytes: number) =>
  bytes < 0 ? `${kilobytes(-bytes)} less` : `${kilobytes(bytes)} more`;

/** Origins that are idle time rather than work. */
const isIdle = (origin: string) => origin === '(idle/program)';

/**
 * A sentence naming where variant a spends its extra CPU per call, from CPU profiles of all
 * three variants. Only a runs @waitfor code, so its self time there is the work the bridge adds,
 * named directly. Differences in code both variants run (SDK, zod, node internals) are indirect —
 * more allocation means more collection, more code more recompilation — and the profiler
 * attributes them loosely; such an origin is named only when it differs by more than the largest
 * difference the A/A profile (control against b) shows for any origin. Garbage collection is
 * taken from the measurement instead (bytes allocated per call and the collection share).
 */
export async function explainExtraCost(
  calls: number,
  variants: Record<(typeof VARIANTS)[number], (calls: number) => Promise<unknown>>,
  costs: PairedRatios['costs'],
): Promise<string> {
  const profiled = await selfTimeByOrigin(calls, variants);
  // The profiler inflates everything (it samples every 100 µs), so its self times are used as
  // shares only and scaled to each variant's CPU per call measured without it.
  const self = Object.fromEntries(
    Object.entries(profiled).map(([name, times]) => {
      const work = [...times].filter(([origin]) => !isIdle(origin));
      const total = work.reduce((sum, [, value]) => sum + value, 0);
      const scale = total > 0 ? (costs[name as keyof typeof costs].cpu * 1000) / total : 0;
      return [name, new Map(work.map(([origin, value]) => [origin, value * scale]))];
    }),
  );
  const microseconds = (value: number) => `${value.toFixed(0)} µs`;
  const ours = [...self.a!]
    .filter(([origin]) => origin.startsWith('@waitfor/'))
    .sort((left, right) => right[1] - left[1]);
  const oursTotal = ours.reduce((total, [, value]) => total + value, 0);
  const shared = new Set(
    [...self.a!.keys(), ...self.b!.keys(), ...self.control!.keys()].filter(
      // Collection is measured without the profiler (allocatedBytes, collectorCpu), directly.
      (origin) => !origin.startsWith('@waitfor/') && origin !== '(garbage collector)',
    ),
  );
  const at = (name: 'a' | 'b' | 'control', origin: string) => self[name]!.get(origin) ?? 0;
  const noise = Math.max(
    0,
    ...[...shared].map((origin) => Math.abs(at('control', origin) - at('b', origin))),
  );
  const beyond = [...shared]
    .map((origin): [string, number] => [origin, at('a', origin) - at('b', origin)])
    .filter(([, extra]) => extra > noise)
    .sort((left, right) => right[1] - left[1]);
  const list = (items: [string, number][]) =>
    items
      .slice(0, 4)
      .map(([origin, value]) => `${origin} ${microseconds(value)}`)
      .join(', ');
  const allocated = costs.a.allocatedBytes - costs.b.allocatedBytes;
  const collection = costs.a.collectorCpu - costs.b.collectorCpu;
  const top = ours[0]?.[0];
  const hints = [
    ...(top === undefined ? [] : [fixHint(top)]),
    ...(collection > 0.25 * (costs.a.cpu - costs.b.cpu) && allocated > 0
      ? [fixHint('(garbage collector)')]
      : []),
  ];
  return (
    `CPU profile of ${calls} calls per variant (rotating segments; self-time shares scaled to ` +
    `the CPU per call measured without the profiler): the @waitfor modules, which only the ` +
    `bridge runs, take ${microseconds(oursTotal)} per call` +
    (ours.length > 0 ? ` (${list(ours)})` : '') +
    '. ' +
    (beyond.length > 0
      ? `In code both variants run, the profile differs by more than the A/A profile's largest ` +
        `difference (${microseconds(noise)} per call for one origin) only for ${list(beyond)} ` +
        `more per call — indirect costs, loosely attributed. `
      : `In code both variants run (SDK, zod, node internals), no origin ` +
        `differs by more than the A/A profile's largest difference (${microseconds(noise)} per ` +
        `call), so none is named. `) +
    `Garbage collection, measured without the profiler: the bridge allocates ` +
    `${signedKilobytes(allocated)} per call, which costs ${signedMs(collection)} of collection ` +
    `per call.` +
    (hints.length === 0 ? '' : ` What would fix it: ${hints.join('; ')}.`)
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
