/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, which needs Node 22:
 * `npx -p node@22` supplies it) against the waitfor conformance client, one scenario per test. A
 * run passes only when the suite exits 0, every expected check is present and SUCCESS, and no check
 * is FAILURE or WARNING (the suite counts a WARNING as a failure too).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const suitePackage = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const tsconfig = fileURLToPath(new URL('./tsx.tsconfig.json', import.meta.url));
const client = fileURLToPath(new URL('./client.ts', import.meta.url));

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED' | (string & {});
  description?: string;
  errorMessage?: string;
}

interface Scenario {
  scenario: string;
  specVersion?: string;
  /** Checks that must be present with status SUCCESS. */
  expected: string[];
  /** Checks allowed to be SKIPPED, with the reason. */
  skipped?: string[];
}

const scenarios: Scenario[] = [
  { scenario: 'initialize', expected: ['mcp-client-initialization'] },
  {
    scenario: 'tools_call',
    specVersion: '2025-11-25',
    expected: ['tool-add-numbers', 'wire-schema-valid'],
  },
  {
    scenario: 'tools_call',
    specVersion: '2026-07-28',
    expected: ['tool-add-numbers', 'wire-schema-valid'],
  },
  {
    scenario: 'elicitation-sep1034-client-defaults',
    expected: [
      'client-elicitation-sep1034-string-default',
      'client-elicitation-sep1034-integer-default',
      'client-elicitation-sep1034-number-default',
      'client-elicitation-sep1034-enum-default',
      'client-elicitation-sep1034-boolean-default',
    ],
  },
  {
    scenario: 'sep-2322-client-request-state',
    expected: [
      'sep-2322-client-request-state-echoed',
      'sep-2322-client-jsonrpc-id-different',
      'sep-2322-client-parallel-isolation',
      'sep-2322-client-no-state-omitted',
      'sep-2322-default-result-type-complete',
    ],
  },
  {
    scenario: 'request-metadata',
    expected: [
      'sep-2575-http-client-sends-version-header',
      'sep-2575-client-populates-meta',
      'sep-2575-client-sends-client-info',
      'sep-2575-http-version-header-matches-meta',
      'sep-2575-client-declares-elicitation-capability',
      'sep-2575-client-retry-supported-version',
    ],
    // The client has no sampling or roots handler, so it honestly declares neither capability;
    // the suite then skips the checks of their shape.
    skipped: [
      'sep-2575-client-declares-roots-capability',
      'sep-2575-client-declares-sampling-capability',
    ],
  },
];

interface Run {
  code: number | null;
  output: string;
}

function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const outputDirectories: string[] = [];
afterAll(async () => {
  await Promise.all(
    outputDirectories.map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

describe('official MCP conformance suite', () => {
  const labelled = scenarios.map((entry) => ({
    ...entry,
    label:
      entry.specVersion === undefined
        ? entry.scenario
        : `${entry.scenario} at ${entry.specVersion}`,
  }));
  test.each(labelled)(
    '$label',
    async ({ scenario, specVersion, expected, skipped = [] }) => {
      const output = await mkdtemp(join(tmpdir(), 'waitfor-conformance-'));
      outputDirectories.push(output);
      const args = ['-y', '-p', 'node@22', '-p', suitePackage, 'conformance', 'client'];
      args.push(
        '--command',
        `${tsx} --tsconfig ${tsconfig} ${client}`,
        '--scenario',
        scenario,
        '-o',
        output,
      );
      if (specVersion !== undefined) args.push('--spec-version', specVersion);
      const result = await run('npx', args);

      const [resultDirectory] = await readdir(output);
      expect(resultDirectory, result.output).toBeDefined();
      const directory = join(output, resultDirectory ?? '');
      const checks = JSON.parse(await readFile(join(directory, 'checks.json'), 'utf8')) as Check[];
      const clientOutput = await readFile(join(directory, 'stderr.txt'), 'utf8').catch(() => '');
      const context = `${result.output}\n--- client stderr ---\n${clientOutput}`;

      const bad = checks.filter(
        (check) =>
          !(
            check.status === 'SUCCESS' ||
            check.status === 'INFO' ||
            (check.status === 'SKIPPED' && skipped.includes(check.id))
          ),
      );
      expect(bad, context).toEqual([]);
      const succeeded = checks
        .filter((check) => check.status === 'SUCCESS')
        .map((check) => check.id);
      expect(succeeded, context).toEqual(expect.arrayContaining(expected));
      expect(result.code, context).toBe(0);
    },
    180_000,
  );
});
