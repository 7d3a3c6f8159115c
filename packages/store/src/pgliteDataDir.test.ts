import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accept } from '@waitfor/core';
import { afterAll, expect, it } from 'vitest';
import { createStore, pgliteDriver, StoreError } from './index';

const dataDir = mkdtempSync(join(tmpdir(), 'waitfor-pglite-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

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
