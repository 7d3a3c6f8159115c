import { describe, expect, it } from 'vitest';
import { interleave, median } from './stats';

describe('median', () => {
  it('takes the middle value, or the mean of the middle two, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('refuses an empty list', () => {
    expect(() => median([])).toThrow(RangeError);
  });
});

describe('interleave', () => {
  it('alternates the variants block by block, swapping who goes first, after a warm-up', async () => {
    const order: string[] = [];
    const costs = await interleave({
      runs: 2,
      blocksPerRun: 2,
      warmUpBlocks: 1,
      a: async () => void order.push('a'),
      b: async () => void order.push('b'),
    });
    // warm-up a b; run 0: a b, b a; run 1: b a, a b.
    expect(order.join('')).toBe('ab' + 'abba' + 'baab');
    expect(costs.a).toHaveLength(2);
    expect(costs.cpuRatios).toHaveLength(2);
  });

  it('sums each variant per run and divides the sums (spins give known lower bounds)', async () => {
    const spin = (ms: number) => async () => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    const costs = await interleave({
      runs: 3,
      blocksPerRun: 2,
      warmUpBlocks: 0,
      a: spin(6),
      b: spin(2),
    });
    expect(costs.a.every((cost) => cost.wall >= 12)).toBe(true);
    expect(costs.b.every((cost) => cost.wall >= 4)).toBe(true);
    costs.wallRatios.forEach((ratio, run) =>
      expect(ratio).toBe(costs.a[run]!.wall / costs.b[run]!.wall),
    );
    costs.cpuRatios.forEach((ratio, run) =>
      expect(ratio).toBe(costs.a[run]!.cpu / costs.b[run]!.cpu),
    );
  });
});
