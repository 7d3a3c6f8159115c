/**
 * Child-process entry: `node --expose-gc --import tsx src/runOne.ts <id>` runs one benchmark and
 * prints its result as the last stdout line, after RESULT_MARKER. One process per benchmark keeps
 * them from disturbing each other (heap left by the inbox, DOM globals for React, JIT state).
 */
import { benches } from './benches';
import { RESULT_MARKER } from './result';

const id = process.argv[2];
const bench = id === undefined ? undefined : benches[id];
if (bench === undefined) {
  console.error(`Unknown benchmark ${String(id)}; known: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}
const result = await bench();
process.stdout.write(`\n${RESULT_MARKER}${JSON.stringify(result)}\n`);
// Connections and timers of a finished benchmark must not keep the process alive.
process.exit(0);
