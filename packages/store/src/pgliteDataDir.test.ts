import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { accept } from '@waitfor/core';
import { afterAll, expect, it } from 'vitest';
import { useDualEraServer } from '../../mcp-bridge/src/__fixtures__/clients';
import { killHosts, startHost } from './__fixtures__/hosts';
import { createStore, pgliteDriver, StoreError } from './index';

const mcp = useDualEraServer();
const dataDir = mkdtempSync(join(tmpdir(), 'waitfor-pglite-'));
const callDir = mkdtempSync(join(tmpdir(), 'waitfor-pglite-'));
const killedDir = mkdtempSync(join(tmpdir(), 'waitfor-pglite-'));
afterAll(() => {
  killHosts();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(callDir, { recursive: true, force: true });
  rmSync(killedDir, { recursive: true, force: true });
});

it('ends its open questions for everyone when the host closes: after a reopen nothing is left to answer', async () => {
  const request = { id: 'persisted', kind: 'approval', prompt: 'Deploy to production?' };
  const first = await createStore({
    driver: pgliteDriver({ dataDir }),
    instance: 'host-1',
    pollMs: 0,
  });
  const before = await first.inbox('ops');
  const waiting = before.waitFor(request);
  await expect.poll(() => before.getSnapshot().length).toBe(1);
  await first.close();
  // The process that asked is gone: its wait ends, and so does the question.
  const ended = await waiting;
  expect(ended).toEqual({ id: 'persisted', ok: false, reason: 'cancelled' });
  expect(StoreError.isInstance((ended as { cause?: unknown }).cause)).toBe(true);
  await expect(before.submit(accept(request))).rejects.toMatchObject({ code: 'closed' });

  const second = await createStore({
    driver: pgliteDriver({ dataDir }),
    instance: 'host-1',
    pollMs: 0,
  });
  const after = await second.inbox('ops');
  // Nobody would read an answer: it is not offered, and one sent anyway is refused.
  expect(after.getSnapshot()).toEqual([]);
  expect(await after.submit(accept(request))).toBe(false);
  await second.close();
});

it('ends at once, on a restart under the same instance, the question a host killed with -9 left open', async () => {
  const host = await startHost(killedDir, 'host-2', mcp.url, { leaseMs: 60_000, pollMs: 0 });
  // A legacy-era question: the host holds the connection, nobody else can deliver its answer.
  void host.send('legacy', { tool: 'ask_form' }).catch(() => {});
  const [question] = (await host.send('questions', { count: 1 })).questions as { id: string }[];
  await host.kill();

  // The same host again, long before its 60 s lease would run out.
  const again = await createStore({
    driver: pgliteDriver({ dataDir: killedDir }),
    instance: 'host-2',
    pollMs: 0,
  });
  const inbox = await again.inbox('fleet');
  expect(inbox.getSnapshot()).toEqual([]);
  expect(await inbox.submit(accept(question!.id, { name: 'Ada' }))).toBe(false);
  await again.close();
  const db = await PGlite.create({ dataDir: killedDir });
  const { rows } = await db.query('SELECT id, state, outcome FROM waitfor_questions');
  await db.close();
  expect(rows).toEqual([{ id: question!.id, state: 'closed', outcome: 'closed' }]);
});

it('completes a durable call whose question was open when its host stopped, in a new process on the same data directory', async () => {
  // A host process (real v2 client, real dual-era server over HTTP) starts the call and stops.
  const first = await startHost(callDir, 'host-1', mcp.url, { pollMs: 0 });
  const { callId } = await first.send('modern', { tool: 'ask_form' });
  expect(callId).toEqual(expect.any(String));
  await first.send('questions', { count: 1 });
  await first.send('stop');
  await first.exited;

  // Another process on the same directory: the question is there, answered, the call resumed.
  const second = await startHost(callDir, 'host-2', mcp.url, { pollMs: 0 });
  const { questions } = await second.send('questions', { count: 1 });
  const [question] = questions as { id: string; prompt: string }[];
  expect(question!.prompt).toBe('Who are you?');
  const answered = await second.send('answer', {
    id: question!.id,
    content: { name: 'Grace', age: 85 },
  });
  expect(answered.won).toBe(true);
  expect((await second.send('result', { callId })).text).toContain('Grace');
  await second.send('stop');
});
