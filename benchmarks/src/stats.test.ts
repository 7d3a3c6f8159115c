import { describe, expect, it } from 'vitest';
import { median, standardError } from './stats';

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

describe('standardError', () => {
  it('is the sample standard deviation over the square root of the count', () => {
    // mean 5, squared deviations 9 + 1 + 1 + 9 = 20, variance 20 / 3, standard error √(20 / 12).
    expect(standardError([2, 4, 6, 8])).toBeCloseTo(Math.sqrt(20 / 12));
    expect(standardError([3, 3, 3])).toBe(0);
  });

  it('refuses fewer than two values', () => {
    expect(() => standardError([1])).toThrow(RangeError);
  });
});
