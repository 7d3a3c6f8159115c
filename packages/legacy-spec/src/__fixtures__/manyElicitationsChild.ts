/**
 * Run in a child process by manyElicitations.test.ts, so that a crash or a blocked event loop fails
 * the test instead of taking the test runner down with it. Reads `{ count, maxElicitations }` as
 * JSON from argv, connects a v2 client with legacy-spec to the v2 completion server over stdio and
 * calls `requires-url` for `count` ids: the server answers -32042 listing all of them; the person
 * accepts every one; once all are asked, the server completes them all (`complete-all`) and the
 * retry succeeds. Prints `{ text?, code?, message?, warnings, states }` as JSON on stdout, where
 * `warnings` are every process warning seen (Node prints MaxListenersExceededWarning past 10
 * listeners on one signal).
 */
import { accept, type WaitFor } from '@waitfor/core';
import { createLegacySpec } from '../index';
import { fixtureServer, openStdio, type OpenConnection } from './openConnection';

const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(`${warning.name}: ${warning.message}`));

const { count, maxElicitations } = JSON.parse(process.argv[2] ?? '{}') as {
  count: number;
  maxElicitations?: number;
};
const elicitationIds = Array.from({ length: count }, (_, index) => `n-${index}`);
const legacy = createLegacySpec({
  completionTimeoutMs: Infinity,
  ...(maxElicitations === undefined ? {} : { maxElicitations }),
});
let asked = 0;
const waitFor: WaitFor = async (request) => {
  asked += 1;
  // The person finished every sign-in: the server sends all the completions (a plain SDK call, so
  // it does not wait for the bridge call in flight).
  if (asked === count) {
    const client = connection.client as { callTool(params: object): Promise<unknown> };
    void client.callTool({ name: 'complete-all', arguments: { elicitationIds } });
  }
  return accept(request);
};
const connection: OpenConnection = await openStdio(
  'v2',
  fixtureServer('completionServerV2Stdio.ts'),
  {
    waitFor,
    extensions: [legacy.extension],
  },
);
const report: Record<string, unknown> = { warnings };
try {
  const result = await connection.callTool('requires-url', {
    elicitationIds,
    url: 'https://auth.example.com/many',
  });
  report['text'] = (result['content'] as Array<{ text?: string }>)[0]?.text;
} catch (error) {
  const { code, message } = error as { code?: unknown; message?: unknown };
  Object.assign(report, { code, message });
}
report['asked'] = asked;
// How many elicitations ended in each state.
const states: Record<string, number> = {};
for (const entry of legacy.getSnapshot()) states[entry.state] = (states[entry.state] ?? 0) + 1;
report['states'] = states;
await connection.close();
// Node emits a warning on a later tick: let any pending one arrive before reporting.
await new Promise((resolve) => setImmediate(resolve));
process.stdout.write(JSON.stringify(report));
