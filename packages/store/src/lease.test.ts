import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { accept } from '@waitfor/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import { createStore, postgresDriver } from './index';

const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const asker = fileURLToPath(new URL('./__fixtures__/asker.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.child.json', import.meta.url));

let server: PostgresServer;
const groups: number[] = [];
beforeAll(async () => {
  server = await startPostgres();
  await server.createDatabase('lease');
});
afterAll(async () => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await server?.destroy();
});

it('closes the questions of a host killed with -9 for everyone once its lease runs out, and only its', async () => {
  const connectionString = server.url('lease');
  const b = await createStore({
    driver: postgresDriver({ connectionString }),
    instance: 'b',
    leaseMs: 1_000,
    pollMs: 0,
  });
  const inboxB = await b.inbox('shared');
  // Its own process group: tsx runs the script in a node child, and kill -9 must reach both.
  const args = ['--tsconfig', tsconfig, asker, connectionString, 'shared', 'a', '1000'];
  const child = spawn(tsx, args, { detached: true });
  groups.push(child.pid!);
  const killAll = () => process.kill(-child.pid!, 'SIGKILL');
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  expect(first.value, stderr).toBe('asked');
  await expect.poll(() => inboxB.get('held')?.prompt).toBe('Still there?');
  // B's own question, asked by a live host, must outlive every sweep.
  const own = inboxB.waitFor({ id: 'mine', kind: 'question', prompt: 'Mine' });
  // A host alive and renewing: a sweep leaves its question alone.
  await b.sweep();
  expect(inboxB.getSnapshot().map((request) => request.id)).toEqual(['held', 'mine']);

  killAll();
  await exited;
  // Nobody renews A's lease now: once it ran out, A's question is no longer offered …
  await expect
    .poll(
      async () => {
        await b.sweep();
        return inboxB.getSnapshot().map((request) => request.id);
      },
      { timeout: 30_000, interval: 250 },
    )
    .toEqual(['mine']);
  expect(await inboxB.submit(accept('held'))).toBe(false);
  const { default: pg } = await import('pg');
  const direct = new pg.Client({ connectionString });
  await direct.connect();
  // … and after the grace period a sweep (any host's poll) closes it for everyone.
  const stateOfHeld = async () => {
    await b.sweep();
    const { rows } = await direct.query(`SELECT state FROM waitfor_questions WHERE id = 'held'`);
    return rows[0]?.state;
  };
  await expect.poll(stateOfHeld, { timeout: 30_000, interval: 250 }).toBe('closed');
  const { rows } = await direct.query(
    'SELECT id, state, asked_by FROM waitfor_questions ORDER BY seq',
  );
  await direct.end();
  expect(rows).toEqual([
    { id: 'held', state: 'closed', asked_by: 'a' },
    { id: 'mine', state: 'open', asked_by: 'b' },
  ]);
  expect(await inboxB.submit(accept('mine'))).toBe(true);
  expect(await own).toEqual(accept('mine'));
  await b.close();
});
