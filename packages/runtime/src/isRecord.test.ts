import { describe, expect, it } from 'vitest';
import { isRecord } from './index';

describe('isRecord', () => {
  it.each([{}, { a: 1 }, Object.create(null), new Error('a cause chain link')])(
    'accepts %o',
    (value) => {
      expect(isRecord(value)).toBe(true);
    },
  );

  it.each([null, undefined, [], [1], 'text', 1, true, () => ({})])('refuses %o', (value) => {
    expect(isRecord(value)).toBe(false);
  });
});
