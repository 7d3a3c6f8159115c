import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { entries, measure } from './size.mjs';

type Entry = { name: string; file: string; budget: number };

const publicEntries = [
  '@waitfor/core',
  '@waitfor/core/form',
  '@waitfor/core/tools',
  '@waitfor/core/zod',
  '@waitfor/mcp-bridge',
  '@waitfor/legacy-spec',
  '@waitfor/otel',
  '@waitfor/react',
  '@waitfor/http',
  '@waitfor/http/client',
  '@waitfor/store',
  '@waitfor/ai-sdk',
];

// Sizes are bytes, not time: deterministic for the same sources, so a budget can be a test.
describe('bundle budgets (min+gzip, esbuild, peers excluded)', () => {
  it('lists every public entry', () => {
    // Without this, renaming or dropping an entry would silently turn its budget test into none.
    expect((entries as Entry[]).map((entry) => entry.name)).toEqual(publicEntries);
  });

  it.each(entries as Entry[])('$name stays within its budget', async (entry) => {
    const size = await measure(entry);
    expect(size.gzipped).toBeLessThanOrEqual(entry.budget);
  });
});
