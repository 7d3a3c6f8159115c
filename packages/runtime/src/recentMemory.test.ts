import { describe, expect, it } from 'vitest';
import { createRecentMemory, recentLimits } from './index';

const clock = (start = 0) => {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
};

describe('createRecentMemory', () => {
  it('keeps an entry until maxAgeMs have passed on its clock, then forgets it', () => {
    const { now, advance } = clock();
    const memory = createRecentMemory<string>({ maxAgeMs: 1_000 }, now);
    memory.set('a', 'first');
    advance(999);
    expect(memory.get('a')).toBe('first');
    advance(1);
    expect(memory.get('a')).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the oldest first; a key set again is the newest', () => {
    const memory = createRecentMemory<number>({ maxEntries: 3 }, clock().now);
    for (const key of ['a', 'b', 'c']) memory.set(key, 1);
    memory.set('a', 2);
    memory.set('d', 1);
    expect(['a', 'b', 'c', 'd'].map((key) => memory.get(key))).toEqual([2, undefined, 1, 1]);
  });

  it('drops stale entries as new ones arrive, so a memory used for long holds only recent ones', () => {
    const { now, advance } = clock();
    const memory = createRecentMemory<number>({ maxEntries: 10, maxAgeMs: 100 }, now);
    memory.set('old', 1);
    advance(100);
    memory.set('new', 2);
    // Gone before anyone asked for it: pruned by the set, not only hidden by get.
    advance(-100);
    expect(memory.get('old')).toBeUndefined();
    expect(memory.get('new')).toBe(2);
  });

  it('defaults to 1,024 entries and ten minutes', () => {
    const { now, advance } = clock();
    const memory = createRecentMemory<number>({}, now);
    for (let i = 0; i <= recentLimits.maxEntries; i++) memory.set(`k${i}`, i);
    expect(memory.get('k0')).toBeUndefined();
    expect(memory.get('k1')).toBe(1);
    advance(10 * 60_000 - 1);
    expect(memory.get('k1')).toBe(1);
    advance(1);
    expect(memory.get('k1')).toBeUndefined();
  });

  it('forgets a deleted key, and keeps nothing under a clock that gives NaN', () => {
    const memory = createRecentMemory<number>({}, () => Number.NaN);
    memory.set('a', 1);
    expect(memory.get('a')).toBeUndefined();
    const kept = createRecentMemory<number>();
    kept.set('b', 1);
    kept.delete('b');
    expect(kept.get('b')).toBeUndefined();
  });
});
