import { pgliteDriver } from '@waitfor/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bounded } from './bounded';
import { countingDriver, statementLabel, statementsPer } from './countingDriver';

describe('countingDriver', () => {
  // PGlite's start takes seconds on a busy machine.
  it(
    'counts every statement on a real PGlite, inside a transaction too, by its opening words',
    {
      timeout: 60_000,
    },
    async () => {
      const counter = countingDriver(await pgliteDriver());
      try {
        await counter.driver.query('CREATE TABLE t (n integer)');
        counter.reset();
        await counter.driver.query('INSERT INTO t VALUES ($1)', [1]);
        await counter.driver.transaction(async (tx) => {
          await tx.query('INSERT INTO t VALUES ($1)', [2]);
          await tx.query('SELECT count(*) FROM t');
        });
        const count = counter.read();
        expect(count).toMatchObject({ statements: 3, transactions: 1 });
        expect(count.byLabel).toEqual({
          'INSERT INTO t VALUES ($1)': 2,
          'SELECT count(*) FROM t': 1,
        });
        expect(count.ms).toBeGreaterThan(0);
        counter.reset();
        expect(counter.read()).toEqual({ statements: 0, ms: 0, transactions: 0, byLabel: {} });
      } finally {
        await counter.driver.close();
      }
    },
  );

  it('names a long statement by its first eight words, whitespace collapsed', () => {
    expect(
      statementLabel('UPDATE  waitfor_calls\n  SET state = $1, claimed_by = $2 WHERE call_id = $3'),
    ).toBe('UPDATE waitfor_calls SET state = $1, claimed_by = …');
  });

  it('averages the statements of several counts per unit, most run first, the rare left out', () => {
    const count = (byLabel: Record<string, number>) => ({
      statements: 0,
      ms: 0,
      transactions: 0,
      byLabel,
    });
    expect(statementsPer([count({ a: 1, b: 3 }), count({ b: 1, c: 0.001 })], 2)).toBe(
      '`b` ×2.00, `a` ×0.50',
    );
  });
});

describe('bounded', () => {
  afterEach(() => vi.useRealTimers());

  it('passes on what settles in time and rejects, naming the wait, what does not', async () => {
    vi.useFakeTimers();
    await expect(bounded(Promise.resolve(7), 1000, 'a run')).resolves.toBe(7);
    const never = bounded(new Promise(() => {}), 1000, 'a run');
    const rejected = expect(never).rejects.toThrow('a run did not end within 1000 ms');
    await vi.advanceTimersByTimeAsync(1000);
    await rejected;
    expect(vi.getTimerCount()).toBe(0);
  });
});
