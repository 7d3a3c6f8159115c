/**
 * The AI SDK's current major: the ai-sdk tests again on `ai` 7 and `@ai-sdk/mcp` 2 (the `ai-v7`
 * and `ai-sdk-mcp-v2` aliases), which need Node 22 — run by vitest.ai7.config.ts under the Node 22
 * that `npx -y -p node@22` provides (as the conformance suite runs), while this project runs on
 * the Node of the machine with ai 6. Passes only when that run passes every test, the comparison
 * with `@ai-sdk/mcp` 2 and the version check among them.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const vitest = fileURLToPath(new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url));

interface JsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: Array<{ name: string; status: string }>;
}

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', args, { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('ai 7 and @ai-sdk/mcp 2 under Node 22', () => {
  it(
    'pass every ai-sdk test and the comparison with @ai-sdk/mcp 2',
    { timeout: 300_000 },
    async () => {
      const work = await mkdtemp(join(tmpdir(), 'waitfor-ai7-'));
      try {
        const report = join(work, 'report.json');
        const args = ['-y', '-p', 'node@22', 'node', vitest, 'run', '-c', 'vitest.ai7.config.ts'];
        const result = await run([...args, '--reporter=json', `--outputFile=${report}`]);
        const parsed = JSON.parse(await readFile(report, 'utf8')) as JsonReport;
        const files = parsed.testResults.map((file) => file.name.slice(packageDir.length));
        expect(files.sort(), result.output).toEqual([
          'src/__tests__/aiSdkMcp2.ai7.ts',
          'src/__tests__/aiVersion.ai7.ts',
          'src/approvals.test.ts',
          'src/convert.test.ts',
          'src/hostile.test.ts',
          'src/mcpTools.test.ts',
          'src/scaling.test.ts',
        ]);
        expect(parsed.numFailedTests, result.output).toBe(0);
        expect(parsed.numPendingTests, result.output).toBe(0);
        expect(parsed.numPassedTests, result.output).toBeGreaterThanOrEqual(60);
        expect(result.code, result.output).toBe(0);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  );
});
