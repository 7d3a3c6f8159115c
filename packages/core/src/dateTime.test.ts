import { describe, expect, it } from 'vitest';
import { isDate, parseDateTime } from './dateTime';

describe('RFC 3339', () => {
  it.each([
    ['2026-07-28T10:00:00Z', Date.UTC(2026, 6, 28, 10)],
    ['2026-07-28t10:00:00z', Date.UTC(2026, 6, 28, 10)],
    ['2026-07-28T10:00:00.250+02:00', Date.UTC(2026, 6, 28, 8, 0, 0, 250)],
    ['2026-07-28T10:00:00.123456789-05:30', Date.UTC(2026, 6, 28, 15, 30, 0, 123)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['0050-01-01T00:00:00Z', Date.parse('0050-01-01T00:00:00Z')],
  ])('parses %s', (value, expected) => {
    expect(parseDateTime(value)).toBe(expected);
  });

  it.each([
    '2026-07-28',
    '2026-07-28 10:00:00Z',
    '2026-07-28T10:00Z',
    '2026-07-28T10:00:00',
    '2026-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-07-28T24:00:00Z',
    '2026-07-28T10:60:00Z',
    '2026-07-28T10:00:00+24:00',
    '2026-07-28T10:00:00.Z',
    '2016-12-31T23:59:60Z',
    'tomorrow',
    '',
  ])('rejects %s', (value) => {
    expect(parseDateTime(value)).toBeNaN();
  });

  it('checks full dates', () => {
    expect(isDate('2024-02-29')).toBe(true);
    expect(isDate('0001-01-01')).toBe(true);
    expect(isDate('2023-02-29')).toBe(false);
    expect(isDate('2024-04-31')).toBe(false);
    expect(isDate('2024-4-01')).toBe(false);
    expect(isDate('2024-04-01T00:00:00Z')).toBe(false);
  });
});
