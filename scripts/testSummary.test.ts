import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The last line of CI is this script's `N passed, N failed`. These cases run it on scratch projects
// that pass, fail and crash on purpose: the line must count every way a run can fail.
const script = fileURLToPath(new URL('./test-summary.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'waitfor-summary-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Plain objects and vitest's globals: the scratch projects need nothing installed.
const config = `export default {
  test: {
    globals: true,
    include: ['*.check.mjs'],
    reporters: ['default', ['json', { outputFile: '.test-results/vitest.json' }]],
  },
};
`;
const passing = "test('passes', () => {});\n";

let projects = 0;
function project(files: Record<string, string>): string {
  const directory = join(scratch, `project-${(projects += 1)}`);
  mkdirSync(directory);
  for (const [name, text] of Object.entries({ 'vitest.config.mjs': config, ...files }))
    writeFileSync(join(directory, name), text);
  return directory;
}

type Run = { code: number; lastLine: string };

function summary(directory: string, ...flags: string[]): Promise<Run> {
  // The child must not think it runs inside this vitest, and prints its line unless told quiet.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('VITEST') && name !== 'WAITFOR_QUIET_SUMMARY',
    ),
  );
  if (flags.includes('--quiet')) env.WAITFOR_QUIET_SUMMARY = '1';
  const args = [script, '--root', directory, ...flags.filter((flag) => flag !== '--quiet')];
  return new Promise((resolve) => {
    // A hang ends at this deadline as a failure instead of stalling the suite.
    execFile(process.execPath, args, { env, timeout: 50_000 }, (error, stdout) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, lastLine: stdout.trimEnd().split('\n').at(-1) ?? '' });
    });
  });
}

const cases: Array<[string, Record<string, string>, string]> = [
  [
    'a test fails',
    { 'a.check.mjs': `${passing}test('fails', () => { throw new Error('no'); });` },
    '1 passed, 1 failed',
  ],
  [
    'a file throws on import',
    { 'a.check.mjs': passing, 'b.check.mjs': "throw new Error('broken');" },
    '1 passed, 1 failed',
  ],
  [
    'a beforeAll throws, so its tests are skipped',
    {
      'a.check.mjs': `${passing}describe('group', () => {
  beforeAll(() => { throw new Error('setup broke'); });
  test('one', () => {});
  test('two', () => {});
});`,
    },
    '1 passed, 1 failed',
  ],
  [
    'an unhandled rejection after every test passed',
    {
      'a.check.mjs': `${passing}test('rejects later', () => { Promise.reject(new Error('unhandled')); });`,
    },
    '2 passed, 1 failed',
  ],
  [
    'a worker dies in the middle of a test',
    {
      'a.check.mjs': passing,
      'b.check.mjs': "test('dies', () => { process.kill(process.pid, 'SIGKILL'); });",
    },
    '1 passed, 1 failed',
  ],
  ['no test file matches', { 'a.test.mjs': passing }, '0 passed, 1 failed'],
];

describe('test-summary', () => {
  it('counts a green run as green', async () => {
    const directory = project({ 'a.check.mjs': passing, 'b.check.mjs': passing });
    expect(await summary(directory)).toEqual({ code: 0, lastLine: '2 passed, 0 failed' });
    expect((await summary(directory, '--print-only')).lastLine).toBe('2 passed, 0 failed');
  });

  it.each(cases)('counts a failure when %s', async (_name, files, line) => {
    const directory = project(files);
    const run = await summary(directory);
    expect(run.lastLine).toBe(line);
    expect(run.code).not.toBe(0);
  });

  it('counts a failure when vitest cannot start, whatever an older report said', async () => {
    const directory = project({ 'a.check.mjs': passing });
    writeFileSync(join(directory, 'vitest.config.mjs'), "throw new Error('bad config');\n");
    mkdirSync(join(directory, '.test-results'));
    const stale = { numPassedTests: 5, numFailedTests: 0, testResults: [] };
    writeFileSync(join(directory, '.test-results/vitest.json'), JSON.stringify(stale));
    const run = await summary(directory);
    expect(run.lastLine).toBe('0 passed, 1 failed');
    expect(run.code).not.toBe(0);
  });

  it('prints the same line with --print-only after a quiet run, as CI does', async () => {
    // CI runs the suite quietly inside `pnpm verify`, then prints the line as its very last output.
    const directory = project(cases[3]![1]);
    const quiet = await summary(directory, '--quiet');
    expect(quiet.lastLine).not.toMatch(/passed/);
    expect(quiet.code).not.toBe(0);
    expect((await summary(directory, '--print-only')).lastLine).toBe('2 passed, 1 failed');
  });

  it('prints a failure with --print-only when no run was recorded', async () => {
    const directory = project({ 'a.check.mjs': passing });
    expect((await summary(directory, '--print-only')).lastLine).toBe('0 passed, 1 failed');
  });
});
