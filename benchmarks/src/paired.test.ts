import { describe, expect, it } from 'vitest';
import { pairedFigures, pairedRatios, pauseExcess } from './paired';
import type { RunSamples, Sample } from './sampleCalls';

const calls = (count: number, cpu: number, heap = 100): Sample[] =>
  Array.from({ length: count }, () => ({ cpu, wall: cpu * 1.5, heap }));

/** Two runs of a, b and the control with the given CPU per call (b's copy is the control). */
const runsOf = (a: number, b: number, control: number): RunSamples => ({
  a: [calls(4, a), calls(4, a * 1.1)],
  b: [calls(4, b), calls(4, b * 1.1)],
  control: [calls(4, control), calls(4, control * 1.1)],
});

const labels = { a: 'bridge', b: 'SDK', ratio: 'bridge ÷ SDK', budget: 1.05 };

describe('pairedRatios', () => {
  it('divides pooled costs, and gives the control and the per-run ratios beside them', () => {
    const ratios = pairedRatios(runsOf(0.12, 0.1, 0.101));
    expect(ratios.cpu).toBeCloseTo(1.2);
    expect(ratios.wall).toBeCloseTo(1.2);
    expect(ratios.controlCpu).toBeCloseTo(1.01);
    expect(ratios.perRun).toHaveLength(2);
    for (const run of ratios.perRun) expect(run.cpu).toBeCloseTo(1.2);
  });

  it('estimates the uncertainty of the CPU ratio from its per-run spread', () => {
    const ratios = pairedRatios({
      a: [calls(4, 0.1), calls(4, 0.12), calls(4, 0.14)],
      b: [calls(4, 0.1), calls(4, 0.1), calls(4, 0.1)],
      control: [calls(4, 0.1), calls(4, 0.1), calls(4, 0.1)],
    });
    expect(ratios.perRun.map((run) => run.cpu)).toEqual(
      [1, 1.2, 1.4].map((value) => expect.closeTo(value)),
    );
    // Per-run ratios 1, 1.2, 1.4: standard deviation 0.2, standard error 0.2 / √3.
    expect(ratios.cpuUncertainty).toBeCloseTo((2 * 0.2) / Math.sqrt(3));
    const { overBudget } = pairedFigures(ratios, labels);
    // 0.15 over the budget with a perfect control, but within two standard errors (0.23).
    expect(overBudget).toContain("within this run's uncertainty of 0.231");
    expect(overBudget).toContain('cannot tell the miss from noise');
  });

  it('refuses samples without the control', () => {
    expect(() => pairedRatios({ a: [calls(2, 1)], b: [calls(2, 1)] })).toThrow(/control/);
  });
});

describe('pairedFigures', () => {
  it('puts the A/A control in the table next to the ratio it qualifies', () => {
    const { figures } = pairedFigures(pairedRatios(runsOf(0.102, 0.1, 0.1)), labels);
    const names = figures.map((figure) => figure.name);
    expect(names).toEqual([
      'bridge: CPU per call',
      'SDK: CPU per call',
      'bridge ÷ SDK (CPU time)',
      'A/A control: SDK ÷ itself (CPU time)',
      'bridge ÷ SDK (wall time)',
      'A/A control: SDK ÷ itself (wall time)',
    ]);
    expect(figures[2]!.budget?.max).toBe(1.05);
    expect(figures[2]!.detail).toContain('A/A control 1.00×');
    expect(figures[3]!.value).toBeCloseTo(1);
    expect(figures[3]!.budget).toBeUndefined();
  });

  it('calls a miss real when it stands well clear of the budget, measured by the control', () => {
    const { overBudget, notes } = pairedFigures(pairedRatios(runsOf(0.12, 0.1, 0.101)), labels);
    expect(overBudget).toContain('1.20×');
    expect(overBudget).toContain('A/A control of 1.01×');
    expect(overBudget).toContain('the miss is not noise');
    expect(notes).toEqual([]);
  });

  it('says when the control is too noisy to tell a miss, or a pass, from the budget', () => {
    const miss = pairedFigures(pairedRatios(runsOf(0.107, 0.1, 0.104)), labels);
    expect(miss.overBudget).toContain('cannot tell the miss from noise');
    expect(miss.notes).toEqual([]);
    const pass = pairedFigures(pairedRatios(runsOf(0.103, 0.1, 0.096)), labels);
    expect(pass.overBudget).toBeUndefined();
    expect(pass.notes).toHaveLength(1);
    expect(pass.notes[0]).toContain('the pass is not conclusive');
    expect(pass.notes[0]).toContain('A/A control of 0.96×');
    const clearPass = pairedFigures(pairedRatios(runsOf(0.1, 0.1, 0.101)), labels);
    expect(clearPass.notes).toEqual([]);
  });
});

describe('pauseExcess', () => {
  /** `count` regular calls of 0.1 ms and `pauses` stalls of 3 ms. */
  const withPauses = (count: number, pauses: number): Sample[] => [
    ...calls(count, 0.1),
    ...Array.from({ length: pauses }, () => ({ cpu: 3, wall: 3, heap: 100 })),
  ];

  it('finds pauses that fall on a far more often than its running time predicts', () => {
    const ratios = pairedRatios({
      a: [withPauses(300, 40)],
      b: [withPauses(300, 5)],
      control: [withPauses(300, 5)],
    });
    // a makes 340 of the 950 calls, all of 0.1 ms regular work: 50 pauses predict 17.9 on a.
    const excess = pauseExcess(ratios.costs);
    expect(excess.expected).toBeCloseTo((50 * 340) / 950);
    expect(excess.z).toBeGreaterThan(3);
    const { notes } = pairedFigures(ratios, labels);
    expect(notes.some((note) => note.includes('stalled in 40 calls'))).toBe(true);
  });

  it('stays quiet when the pauses fall in proportion to running time', () => {
    const ratios = pairedRatios({
      a: [withPauses(300, 6)],
      b: [withPauses(300, 5)],
      control: [withPauses(300, 6)],
    });
    expect(Math.abs(pauseExcess(ratios.costs).z)).toBeLessThan(1);
    expect(pairedFigures(ratios, labels).notes.some((note) => note.includes('stalled'))).toBe(
      false,
    );
  });
});
