import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { entries } from './size.mjs';

const script = fileURLToPath(new URL('./size.mjs', import.meta.url));

type Run = { code: number; output: string };

/** Runs `node scripts/size.mjs` as `pnpm size` does and collects its exit code and output. */
function runSize(...flags: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...flags],
      // A hang ends at this deadline as a failure instead of stalling the suite.
      { timeout: 50_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

// `pnpm verify` stops on a non-zero exit; a script that only printed a missed budget let it pass.
describe('pnpm size', () => {
  it('exits 0 when every entry is within its budget', async () => {
    const run = await runSize();
    expect(run.output).not.toMatch(/over its budget/);
    expect(run.code).toBe(0);
  });

  it('exits non-zero and names every entry that misses its budget', async () => {
    // Budgets shrunk a hundredfold: no entry can fit, so each must be reported.
    const run = await runSize('--budget-scale=0.01');
    expect(run.code).not.toBe(0);
    for (const entry of entries as Array<{ name: string }>)
      expect(run.output).toContain(`${entry.name} is over its budget`);
  });

  it('refuses a budget scale that is not a positive number', async () => {
    const run = await runSize('--budget-scale=abc');
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('--budget-scale');
  });
});
