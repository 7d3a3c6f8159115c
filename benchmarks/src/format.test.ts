import { describe, expect, it } from 'vitest';
import { ms } from './format';

describe('ms', () => {
  it.each([
    [250, '250 ms'],
    [14.687, '14.69 ms'],
    [0.638, '638.0 µs'],
    [0.0005, '500 ns'],
    [0, '0 ns'],
  ])('%d ms reads %s', (value, text) => {
    expect(ms(value)).toBe(text);
  });

  // A difference of two medians can be negative: it keeps the unit its size calls for.
  it.each([
    [-250, '-250 ms'],
    [-2.5, '-2.50 ms'],
    [-0.72, '-720.0 µs'],
    [-0.0005, '-500 ns'],
  ])('%d ms reads %s', (value, text) => {
    expect(ms(value)).toBe(text);
  });
});
