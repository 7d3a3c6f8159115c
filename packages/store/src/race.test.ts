import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Answer, Request } from '@waitfor/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import { createStore, postgresDriver } from './index';

const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const answerer = fileURLToPath(new URL('./__fixtures__/answerer.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.child.json', import.meta.url));

let server: PostgresServer;
const children: ChildProcessWithoutNullStreams[] = [];
beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase('race');
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await server?.destroy();
});

/** Starts a host process; resolves with its line reader once the store opened it. */
function host(name: string, count: number) {
  const child = spawn(tsx, [
    '--tsconfig',
    tsconfig,
    answerer,
    server.url('race'),
    'race',
    name,
    String(count),
  ]);
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error(`${name} ended early: ${stderr}`);
    return line.value;
  };
  return { child, next };
}

it('answers 100 questions through two host processes at the same moment: one answer wins each, the asker gets exactly that one', async () => {
  const count = 100;
  const store = await createStore({
    driver: postgresDriver({ connectionString: server.url('race') }),
    instance: 'asker',
    pollMs: 0,
  });
  // The database exists before the hosts start; the store migrates it once here.
  const inbox = await store.inbox('race');
  const [one, two] = [host('one', count), host('two', count)];
  const requests: Request[] = Array.from({ length: count }, (_, i) => ({
    id: `race-${i}`,
    kind: 'approval',
    prompt: `Allow step ${i}?`,
  }));
  const received = new Map<string, Answer[]>();
  const waits = requests.map((request) =>
    inbox.waitFor(request).then((answer) => {
      received.set(request.id, [...(received.get(request.id) ?? []), answer]);
      return answer;
    }),
  );
  // Both hosts list all 100 (by NOTIFY), then both are told to answer at once.
  expect(await one.next()).toBe('ready');
  expect(await two.next()).toBe('ready');
  one.child.stdin.write('go\n');
  two.child.stdin.write('go\n');
  const [wonByOne, wonByTwo] = (await Promise.all([one.next(), two.next()])).map(
    (line) => JSON.parse(line) as Record<string, boolean>,
  );
  const answers = await Promise.all(waits);

  for (const [i, request] of requests.entries()) {
    const winners = [wonByOne![request.id], wonByTwo![request.id]];
    expect(winners.filter(Boolean), request.id).toHaveLength(1);
    // The asker got one answer, the winner's.
    expect(received.get(request.id)).toHaveLength(1);
    expect(answers[i]).toEqual({
      id: request.id,
      ok: true,
      data: { by: winners[0] ? 'one' : 'two' },
    });
  }
  const { default: pg } = await import('pg');
  const direct = new pg.Client({ connectionString: server.url('race') });
  await direct.connect();
  const { rows } = await direct.query(
    `SELECT answered_by, count(*)::int AS n FROM waitfor_questions WHERE state = 'answered' GROUP BY answered_by`,
  );
  await direct.end();
  const byHost = Object.fromEntries(rows.map((row) => [row.answered_by, row.n]));
  expect((byHost.one ?? 0) + (byHost.two ?? 0)).toBe(count);
  expect(Object.values(wonByOne!).filter(Boolean).length).toBe(byHost.one ?? 0);
  await store.close();
});
