/**
 * Benchmark 6 — bundle sizes. The sizes come from the root `scripts/size.mjs` (min+gzip with
 * esbuild, peers excluded, per documented import); a second esbuild pass with a metafile says which
 * modules fill each bundle, so a missed budget comes with the modules to cut.
 */
import { build, type Metafile } from 'esbuild';
import { entries, esbuildOptions, measure } from '../../scripts/size.mjs';
import { kilobytes } from './format';
import type { BenchResult, Figure } from './result';

interface SizeEntry {
  name: string;
  budget: number;
}

/** Where a bundled input comes from: a package name for dependencies, else the source path. */
function originOf(input: string): string {
  const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(input);
  return match ? match[1]! : input.replace(/^(\.\.\/)+/, '');
}

/** Bytes of string and template literals in minified code (messages and keys; approximate). */
function literalBytes(code: string): number {
  let total = 0;
  for (const match of code.matchAll(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g))
    total += match[0].length;
  return total;
}

interface Breakdown {
  /** Minified bytes per origin, largest first. */
  parts: Array<{ origin: string; bytes: number }>;
  /** Bytes of string literals in the minified bundle. */
  literals: number;
}

/** The minified bytes each origin contributes to the entry's bundle, and its string literals. */
async function breakdown(entry: SizeEntry): Promise<Breakdown> {
  const result = await build({ ...esbuildOptions(entry), metafile: true });
  const metafile: Metafile = result.metafile!;
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const origin = originOf(input);
      totals.set(origin, (totals.get(origin) ?? 0) + bytesInOutput);
    }
  }
  const parts = [...totals]
    .map(([origin, bytes]) => ({ origin, bytes }))
    .sort((left, right) => right.bytes - left.bytes);
  return { parts, literals: literalBytes(result.outputFiles?.[0]?.text ?? '') };
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;

/** Run benchmark 6. */
export async function benchBundleSize(): Promise<BenchResult> {
  const figures: Figure[] = [];
  const notes: string[] = [];
  for (const entry of entries as SizeEntry[]) {
    const size = (await measure(entry)) as { minified: number; gzipped: number };
    const { parts, literals } = await breakdown(entry);
    const total = parts.reduce((sum, part) => sum + part.bytes, 0);
    const top = parts
      .slice(0, 3)
      .map((part) => `${part.origin} ${percent(part.bytes, total)}`)
      .join(', ');
    figures.push({
      name: `${entry.name} (min+gzip)`,
      value: size.gzipped / 1024,
      unit: 'KB',
      runs: 1,
      budget: { max: entry.budget / 1024, label: `≤ ${kilobytes(entry.budget)}` },
      detail: `min ${kilobytes(size.minified)}; largest: ${top}`,
    });
    if (size.gzipped > entry.budget) {
      const [largest] = parts;
      const over = size.gzipped - entry.budget;
      // gzip shrinks this bundle by about this factor; a cut of minified code saves about that much.
      const minifiedToCut = over / (size.gzipped / size.minified);
      notes.push(
        `${entry.name} is ${kilobytes(size.gzipped)} min+gzip, over its ${kilobytes(entry.budget)} ` +
          `budget by ${kilobytes(over)}. Largest share of the minified bundle: ` +
          `${largest?.origin} (${percent(largest?.bytes ?? 0, total)}, ${kilobytes(largest?.bytes ?? 0)} ` +
          `before gzip); then ${parts
            .slice(1, 4)
            .map((part) => `${part.origin} ${kilobytes(part.bytes)}`)
            .join(', ')}. String literals (messages, keys) are ${kilobytes(literals)} ` +
          `(${percent(literals, size.minified)}) of the minified code. What would fix it: cut about ` +
          `${kilobytes(minifiedToCut)} of minified code (gzip keeps ${percent(size.gzipped, size.minified)} ` +
          `of it here) — e.g. shorter error messages, or moving rarely used parts of ` +
          `${largest?.origin} behind a separate entry.`,
      );
    }
  }
  return {
    id: 'bundle-size',
    title: '6. Bundle sizes',
    method:
      "scripts/size.mjs: each documented import alone (the READMEs' quick starts), bundled from " +
      'source by esbuild with tree-shaking, minified, gzip level 9; the dependencies a user downloads ' +
      'with it counted, peers left out; module shares from an esbuild metafile (before gzip). ' +
      "A budget is a growth alarm on what a user's bundler keeps, not a target: the import's size " +
      'when last reset plus 10–15 %; a change that crosses one says why in its commit and resets ' +
      'it, or takes the growth out. `pnpm size` prints the same table and fails when an import is ' +
      'over its budget; scripts/size.test.ts fails when a value a README quick start imports has ' +
      'no budget.',
    figures,
    notes,
  };
}
