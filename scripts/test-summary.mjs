// Runs the whole vitest suite (every project) and prints one line `N passed, N failed` with the
// totals. With --print-only it reads the last run's JSON report instead of running the tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const report = `${root}.test-results/vitest.json`;
const printOnly = process.argv.includes('--print-only');

let status = 0;
if (!printOnly) {
  rmSync(report, { force: true });
  const run = spawnSync(`${root}node_modules/.bin/vitest`, ['run'], {
    cwd: root,
    stdio: 'inherit',
  });
  status = run.status ?? 1;
}

if (!existsSync(report)) {
  // No report means vitest itself crashed: count that as one failure so it cannot pass silently.
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const results = JSON.parse(readFileSync(report, 'utf8'));
const passed = results.numPassedTests ?? 0;
// Suites that failed to load (a syntax error, a throwing import) hold no tests; count each as one.
const brokenFiles = (results.testResults ?? []).filter(
  (file) => file.status === 'failed' && (file.assertionResults ?? []).length === 0,
).length;
const failed = (results.numFailedTests ?? 0) + brokenFiles;
// .ci/run prints the line itself as its very last output; everyone else sees it here.
if (printOnly || !process.env.WAITFOR_QUIET_SUMMARY)
  console.log(`${passed} passed, ${failed} failed`);
if (!printOnly && (status !== 0 || failed > 0 || passed === 0)) process.exit(1);
