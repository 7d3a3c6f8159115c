import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { entries, measure } from './size.mjs';

type Entry = { name: string; file: string; budget: number };

// Sizes are bytes, not time: deterministic for the same sources, so a budget can be a test.
describe('bundle budgets of @waitfor/core', () => {
  it.each((entries as Entry[]).filter((entry) => entry.name.startsWith('@waitfor/core')))(
    '$name stays within its budget',
    async (entry) => {
      const size = await measure(entry);
      expect(size.gzipped).toBeLessThanOrEqual(entry.budget);
    },
  );
});
