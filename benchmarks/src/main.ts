/**
 * `pnpm bench`: runs every benchmark, each in its own Node process (with --expose-gc, through
 * tsx), prints the table, and rewrites BENCHMARKS.md at the repository root with the figures, the
 * machine and the date. `pnpm bench -- modern-loop react` runs only the named ones (and then
 * leaves BENCHMARKS.md alone unless --write is given).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benches } from './benches';
import { currentLoad, describeMachine } from './machine';
import { figureTable, renderMarkdown, type Failure } from './report';
import { RESULT_MARKER, type BenchResult } from './result';

const runOne = fileURLToPath(new URL('./runOne.ts', import.meta.url));
const markdownFile = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));
/** A benchmark that takes longer than this is stopped (keeps a full run within a few minutes). */
const TIMEOUT_MS = 150_000;

function runChild(id: string): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', runOne, id], {
      // Production mode for React; the other benchmarks do not read it.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = output.split('\n').find((text) => text.startsWith(RESULT_MARKER));
      if (line === undefined) {
        reject(new Error(`exited with ${signal ?? `code ${String(code)}`} and no result`));
        return;
      }
      resolve(JSON.parse(line.slice(RESULT_MARKER.length)) as BenchResult);
    });
  });
}

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const write = args.includes('--write');
const chosen = args.filter((arg) => !arg.startsWith('--'));
for (const id of chosen) {
  if (!(id in benches))
    throw new Error(`Unknown benchmark ${id}; known: ${Object.keys(benches).join(', ')}`);
}
const ids = chosen.length > 0 ? chosen : Object.keys(benches);

const machine = describeMachine();
const started = performance.now();
const results: BenchResult[] = [];
const failures: Failure[] = [];
for (const id of ids) {
  const begin = performance.now();
  process.stderr.write(`bench ${id} …\n`);
  try {
    results.push(await runChild(id));
    process.stderr.write(`bench ${id}: ${((performance.now() - begin) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    failures.push({ id, error: error instanceof Error ? error.message : String(error) });
    process.stderr.write(`bench ${id} FAILED: ${String(error)}\n`);
  }
}
machine.loadAtEnd = currentLoad();
const seconds = (performance.now() - started) / 1000;

console.log(figureTable(results).join('\n'));
for (const result of results) for (const note of result.notes) console.log(`\nNote: ${note}`);
for (const failure of failures) console.log(`\nFAILED ${failure.id}: ${failure.error}`);
if (chosen.length === 0 || write) {
  writeFileSync(markdownFile, renderMarkdown(machine, results, failures, seconds));
  console.log(`\nWrote ${markdownFile} (${seconds.toFixed(0)} s).`);
}
process.exitCode = failures.length > 0 ? 1 : 0;
