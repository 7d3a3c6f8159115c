import { describe, expect, it } from 'vitest';
import { permutations, sampleCalls, sampleOf } from './sampleCalls';

describe('permutations', () => {
  it('lists every ordering once', () => {
    const orders = permutations(['a', 'b', 'c']).map((order) => order.join(''));
    expect(orders).toHaveLength(6);
    expect(new Set(orders)).toEqual(new Set(['abc', 'acb', 'bac', 'bca', 'cab', 'cba']));
    expect(permutations(['a'])).toEqual([['a']]);
  });
});

describe('sampleOf', () => {
  it('records the CPU and wall time of a busy call (a spin gives a known lower bound)', async () => {
    const sample = await sampleOf(async () => {
      const end = performance.now() + 5;
      while (performance.now() < end);
    });
    expect(sample.wall).toBeGreaterThanOrEqual(5);
    expect(sample.cpu).toBeGreaterThan(2);
  });

  it('records the bytes a call allocates as heap growth', async () => {
    const kept: unknown[] = [];
    const sample = await sampleOf(async () => {
      for (let index = 0; index < 2_000; index++) kept.push({ index, text: `item ${index}` });
    });
    expect(kept).toHaveLength(2_000);
    // 2,000 live objects with their strings take well over 20 KB unless a collection ran.
    expect(sample.heap > 20_000 || sample.heap < 0).toBe(true);
  });
});

describe('sampleCalls', () => {
  it('interleaves call by call, cycling through every order, after untimed warm-up and settling rounds', async () => {
    const calls: string[] = [];
    const variant = (name: string) => async () => void calls.push(name);
    const samples = await sampleCalls({
      variants: { a: variant('a'), b: variant('b'), c: variant('c') },
      runs: 2,
      roundsPerRun: 6,
      warmUpRounds: 1,
      settleRounds: 2,
    });
    // 1 warm-up round, then per run 2 settling and 6 timed rounds: 17 rounds of 3 calls.
    expect(calls).toHaveLength(17 * 3);
    const rounds = Array.from({ length: 17 }, (_, index) =>
      calls.slice(index * 3, index * 3 + 3).join(''),
    );
    expect(rounds.slice(0, 6)).toEqual(['abc', 'acb', 'bac', 'bca', 'cab', 'cba']);
    // Any six consecutive rounds hold every order once.
    expect(new Set(rounds.slice(5, 11)).size).toBe(6);
    for (const name of ['a', 'b', 'c']) {
      expect(samples[name]).toHaveLength(2);
      for (const run of samples[name]!) {
        expect(run).toHaveLength(6);
        for (const sample of run) {
          expect(sample.cpu).toBeGreaterThanOrEqual(0);
          expect(sample.wall).toBeGreaterThanOrEqual(0);
          expect(Number.isFinite(sample.heap)).toBe(true);
        }
      }
    }
  });
});
