/**
 * Resumes a suspended tool run in a separate process: reads `{ suspension, answers }` as JSON on
 * stdin and prints the outcome (or the error's code and path) as JSON on stdout.
 */
import { resumeTool } from '../tools';
import { bookTable } from './tools';

let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const { suspension, answers } = JSON.parse(input) as { suspension: unknown; answers: never };
try {
  const outcome = await resumeTool(bookTable, suspension, answers);
  process.stdout.write(JSON.stringify({ ok: true, outcome, pid: process.pid }));
} catch (error) {
  const { code, path } = error as { code?: unknown; path?: unknown };
  process.stdout.write(JSON.stringify({ ok: false, code, path, pid: process.pid }));
}
