// Runs the whole vitest suite (every project) and prints one line `N passed, N failed` with the
// totals. With --print-only it prints the last run's line again instead of running the tests.
// The line says `0 failed` only for a run that passed: exit code 1 and `N failed` > 0 go together.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = fileURLToPath(new URL('..', import.meta.url));
// --root <dir> runs another project with this repository's vitest: the summary's own tests use it
// on scratch projects that pass, fail and crash on purpose.
const rootFlag = process.argv.indexOf('--root');
if (rootFlag !== -1 && !process.argv[rootFlag + 1]) {
  console.error('--root needs a directory');
  process.exit(2);
}
const root = rootFlag === -1 ? repository : resolve(process.argv[rootFlag + 1]);
const report = join(root, '.test-results/vitest.json');
const printOnly = process.argv.includes('--print-only');

// The run's own totals, kept for --print-only: the JSON report cannot show a non-zero exit.
const summary = join(root, '.test-results/summary.json');

/** Counts a vitest JSON report: failed and unfinished tests, and files that failed around them. */
function totalsOf(results) {
  const files = results.testResults ?? [];
  const tests = files.flatMap((file) => file.assertionResults ?? []);
  // A test still pending when the run ended never finished: its worker died under it.
  const failedOrUnfinished = (test) => test.status === 'failed' || test.status === 'pending';
  // A file can fail with no failed test inside: it threw on import, or a beforeAll threw and its
  // tests were skipped. Each counts as one.
  const brokenFiles = files.filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some(failedOrUnfinished),
  ).length;
  return {
    passed: tests.filter((test) => test.status === 'passed').length,
    failed: tests.filter(failedOrUnfinished).length + brokenFiles,
  };
}

/** Runs the suite and returns the totals of the line, counting every way the run can fail. */
function run() {
  rmSync(report, { force: true });
  rmSync(summary, { force: true });
  const vitest = spawnSync(join(repository, 'node_modules/.bin/vitest'), ['run'], {
    cwd: root,
    stdio: 'inherit',
  });
  const status = vitest.status ?? 1;
  if (!existsSync(report)) {
    console.error('test-summary: vitest wrote no report (it failed to start or crashed).');
    return { passed: 0, failed: 1 };
  }
  const totals = totalsOf(JSON.parse(readFileSync(report, 'utf8')));
  // The line must never say `0 failed` for a run that failed: an unhandled error, a dead worker
  // or an empty run leaves no failed test in the report but a non-zero exit (or nothing passed).
  if (totals.failed === 0 && (status !== 0 || totals.passed === 0)) {
    console.error(
      `test-summary: vitest exited with status ${status} and ${totals.passed} passed tests but ` +
        'its report holds no failed test (see the errors above); counted as one failure.',
    );
    return { ...totals, failed: 1 };
  }
  return totals;
}

let totals;
if (printOnly) {
  totals = existsSync(summary)
    ? JSON.parse(readFileSync(summary, 'utf8'))
    : // No recorded run (the tests never ran, or vitest crashed): one failure, never a silent pass.
      { passed: 0, failed: 1 };
} else {
  totals = run();
  mkdirSync(dirname(summary), { recursive: true });
  writeFileSync(summary, JSON.stringify(totals));
}
// .ci/run prints the line itself as its very last output; everyone else sees it here.
if (printOnly || !process.env.WAITFOR_QUIET_SUMMARY)
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
if (totals.failed > 0) process.exit(1);
