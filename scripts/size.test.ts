import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageQuickStart, rootQuickStart, type CheckedFile } from './readmeBlocks';
// @ts-expect-error -- a plain .mjs script without type declarations
import { entries, measure } from './size.mjs';

type Entry = { name: string; from: string; names: string[]; budget: number };

const root = fileURLToPath(new URL('..', import.meta.url));

/** The quick starts of the root README and of every package README. */
function quickStarts(): CheckedFile[] {
  const readme = (path: string) => readFileSync(`${root}${path}`, 'utf8');
  const packageReadmes = readdirSync(`${root}packages`)
    .map((folder) => `packages/${folder}/README.md`)
    .filter((path) => existsSync(`${root}${path}`));
  return [
    ...rootQuickStart(readme('README.md')),
    ...packageReadmes.flatMap((path) => packageQuickStart(readme(path))),
  ];
}

/** Each value a piece of code imports from a browser-safe @waitfor entry, as "name from entry". */
function waitforImports(code: string): string[] {
  const imports = code.matchAll(/\bimport\s+(type\s+)?\{([^}]*)\}\s*from\s*'(@waitfor\/[^']+)'/g);
  return [...imports]
    .filter(([, typeOnly, , from]) => !typeOnly && !from!.endsWith('/node'))
    .flatMap(([, , names, from]) =>
      names!
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && !name.startsWith('type '))
        .map((name) => `${name.split(/\s+as\s+/)[0]} from ${from}`),
    );
}

// Sizes are bytes, not time: deterministic for the same sources, so a budget can be a test.
describe('bundle budgets (what a bundler keeps of each documented import, min+gzip)', () => {
  it('measures every value a README quick start imports from a @waitfor package', () => {
    // Without this, a quick start could import something no budget watches. Node-only entries
    // (@waitfor/*/node) run on servers, where bytes cost little, and have none.
    const measured = new Set(
      (entries as Entry[]).flatMap((entry) =>
        entry.names.map((name) => `${name} from ${entry.from}`),
      ),
    );
    const documented = [...new Set(quickStarts().flatMap((file) => waitforImports(file.code)))];
    expect(documented.length).toBeGreaterThan(10);
    expect(documented.filter((name) => !measured.has(name))).toEqual([]);
  });

  it('reads a quick start import as its values, without types or Node-only entries', () => {
    expect(
      waitforImports(
        "import { a, type B, c as d } from '@waitfor/core';\n" +
          "import type { E } from '@waitfor/react';\nimport { connect } from '@waitfor/mcp-bridge/node';",
      ),
    ).toEqual(['a from @waitfor/core', 'c from @waitfor/core']);
  });

  it.each(entries as Entry[])('$name stays within its budget', async (entry) => {
    const size = await measure(entry);
    expect(size.gzipped).toBeLessThanOrEqual(entry.budget);
  });

  it('keeps only what the import reaches (tree-shaken), and counts the dependencies a user downloads', async () => {
    const alone = await measure({ from: '@waitfor/core', names: ['createInbox'] });
    const more = await measure({ from: '@waitfor/core', names: ['createInbox', 'boundWaitFor'] });
    expect(more.gzipped).toBeGreaterThan(alone.gzipped);
    // The remote inbox depends on core: core's part of it is in the figure.
    const client = { from: '@waitfor/http/client', names: ['createRemoteInbox'] };
    const withoutCore = await measure({
      ...client,
      external: ['@waitfor/core', '@waitfor/core/*'],
    });
    expect((await measure(client)).gzipped).toBeGreaterThan(withoutCore.gzipped);
  });
});
