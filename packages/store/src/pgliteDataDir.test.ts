import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accept } from '@waitfor/core';
import { afterAll, expect, it } from 'vitest';
import { useDualEraServer } from '../../mcp-bridge/src/__fixtures__/clients';
import { killHosts, startHost } from './__fixtures__/hosts';
import { createStore, pgliteDriver, StoreError } from './index';

const mcp = useDualEraServer();
const dataDir = mkdtempSync(join(tmpdir(), 'waitfor-pglite-'));
const callDir = mkdtempSync(join(tmpdir(), 'waitfor-pglite-'));
afterAll(() => {
  killHosts();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(callDir, { recursive: true, force: true });
});

it('keeps a question open across a close and a reopen of a PGlite data directory', async () => {
  const request = { id: 'persisted', kind: 'approval', prompt: 'Deploy to production?' };
  // The same host stopped and started again: the same instance, whose lease keeps its questions.
  const first = await createStore({
    driver: pgliteDriver({ dataDir }),
    instance: 'host-1',
    pollMs: 0,
  });
  const before = await first.inbox('ops');
  const waiting = before.waitFor(request);
  await expect.poll(() => before.getSnapshot().length).toBe(1);
  await first.close();
  // The process that asked is gone: its wait ends, the question does not.
  const ended = await waiting;
  expect(ended).toEqual({ id: 'persisted', ok: false, reason: 'cancelled' });
  expect(StoreError.isInstance((ended as { cause?: unknown }).cause)).toBe(true);
  await expect(before.submit(accept(request))).rejects.toMatchObject({ code: 'closed' });

  const second = await createStore({
    driver: pgliteDriver({ dataDir }),
    instance: 'host-1',
    pollMs: 0,
  });
  await second.sweep();
  const after = await second.inbox('ops');
  expect(after.getSnapshot()).toEqual([request]);
  // Answered after the restart: recorded once, then gone from the snapshot.
  expect(await after.submit(accept(request))).toBe(true);
  expect(await after.submit(accept(request))).toBe(false);
  await expect.poll(() => after.getSnapshot()).toEqual([]);
  await second.close();
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
