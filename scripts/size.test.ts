import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { entries, measure } from './size.mjs';

type Entry = { name: string; file: string; budget: number };

const entriesOf = (keep: (entry: Entry) => boolean): Entry[] => (entries as Entry[]).filter(keep);

// Sizes are bytes, not time: deterministic for the same sources, so a budget can be a test.
describe('bundle budgets of @waitfor/core', () => {
  it.each(entriesOf((entry) => entry.name.startsWith('@waitfor/core')))(
    '$name stays within its budget',
    async (entry) => {
      const size = await measure(entry);
      expect(size.gzipped).toBeLessThanOrEqual(entry.budget);
    },
  );
});

describe('bundle budget of @waitfor/legacy-spec', () => {
  const legacySpec = entriesOf((entry) => entry.name === '@waitfor/legacy-spec');

  it('is listed in scripts/size.mjs', () => {
    // Without this, renaming or dropping the entry would silently turn the budget test below into none.
    expect(legacySpec.length).toBeGreaterThan(0);
  });

  it.each(legacySpec)('$name stays within its budget', async (entry) => {
    const size = await measure(entry);
    expect(size.gzipped).toBeLessThanOrEqual(entry.budget);
  });
});
