/**
 * What the conformance tests share: the suite's package, running it (on the Node 22 that
 * `npx -p node@22` supplies: the suite needs it), reading the checks of one scenario's run, and
 * judging them. A run passes only when every expected check is present and SUCCESS, no check is
 * FAILURE or WARNING (the suite counts a WARNING as a failure too), and the suite exits 0 — except
 * a scenario's known failures, named with their reason: there the failing checks must be exactly
 * those, so a new failure fails the test and a fixed one asks for the entry to go.
 */
import { execFile, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ExpectStatic } from 'vitest';

export const suitePackage = '@modelcontextprotocol/conformance@0.2.0-alpha.12';

export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED' | (string & {});
  description?: string;
  errorMessage?: string;
}

/** What one scenario's run must show. */
export interface Expectation {
  /** Checks that must be present with status SUCCESS. */
  expected: string[];
  /** Checks allowed to be SKIPPED, with the reason in a comment. */
  skipped?: string[];
  /** Checks known to fail (FAILURE), with the reason in a comment; exactly these may fail. */
  knownFailures?: string[];
}

export interface Run {
  code: number | null;
  output: string;
}

export function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Where the suite's CLI and the Node 22 that runs it are. */
interface SuiteCommand {
  node: string;
  cli: string;
}

/** Found once per test file: `npx` costs seconds of CPU a call, the CLI itself well under one. */
let located: Promise<SuiteCommand> | undefined;

/** `npx -p node@22 -p <suite>` installs both into its cache and names their paths. */
function locateSuite(): Promise<SuiteCommand> {
  located ??= new Promise((resolve, reject) => {
    const where = 'command -v node && command -v conformance';
    execFile(
      'npx',
      ['-y', '-p', 'node@22', '-p', suitePackage, '-c', where],
      (error, stdout, stderr) => {
        const [node, cli] = stdout.split('\n').filter((line) => line.startsWith('/'));
        if (error || node === undefined || cli === undefined)
          reject(new Error(`npx did not find the conformance suite:\n${stdout}${stderr}`));
        else resolve({ node, cli });
      },
    );
  });
  return located;
}

/**
 * Run the suite's CLI with these arguments, on Node 22. A client command it starts runs on the
 * project's own Node (the PATH is this process's).
 */
export async function runSuite(...args: string[]): Promise<Run> {
  const { node, cli } = await locateSuite();
  return run(node, [cli, ...args]);
}

/** The checks of the one scenario run saved under `output` (nested for `auth/…` names). */
export async function readChecks(
  output: string,
  expect: ExpectStatic,
  runOutput: string,
): Promise<{ checks: Check[]; directory: string }> {
  const found = (await readdir(output, { recursive: true })).find((path) =>
    path.endsWith('checks.json'),
  );
  expect(found, runOutput).toBeDefined();
  const directory = dirname(join(output, found ?? ''));
  const checks = JSON.parse(await readFile(join(directory, 'checks.json'), 'utf8')) as Check[];
  return { checks, directory };
}

/** Assert one run against its expectation (see the module comment). */
export function judge(
  expect: ExpectStatic,
  checks: Check[],
  code: number | null,
  { expected, skipped = [], knownFailures = [] }: Expectation,
  context: string,
): void {
  const bad = checks.filter(
    (check) =>
      !(
        check.status === 'SUCCESS' ||
        check.status === 'INFO' ||
        (check.status === 'SKIPPED' && skipped.includes(check.id)) ||
        (check.status === 'FAILURE' && knownFailures.includes(check.id))
      ),
  );
  expect(bad, context).toEqual([]);
  const failed = new Set(
    checks.filter((check) => check.status === 'FAILURE').map((check) => check.id),
  );
  expect([...failed].sort(), context).toEqual([...knownFailures].sort());
  const succeeded = checks.filter((check) => check.status === 'SUCCESS').map((check) => check.id);
  expect(succeeded, context).toEqual(expect.arrayContaining(expected));
  // The suite exits 1 when any check failed, known or not.
  expect(code, context).toBe(knownFailures.length === 0 ? 0 : 1);
}
