import { accept } from '@waitfor/core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Store } from './index';
import { createStore } from './index';

let store: Store;
beforeAll(async () => {
  store = await createStore({ pollMs: 0 });
});
afterAll(async () => {
  vi.useRealTimers();
  await store?.close();
});

const day = 24 * 60 * 60 * 1000;

it('keeps a question open until an expiresAt further away than one timer holds (24.8 days)', async () => {
  // Fake timers that still run with real time, so the database's own timers keep working.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
  const inbox = await store.inbox('patient');
  const request = {
    id: 'month',
    kind: 'approval',
    prompt: 'Renew in a month?',
    expiresAt: new Date(Date.now() + 30 * day).toISOString(),
  };
  let settled = false;
  const waiting = inbox.waitFor(request).then((answer) => {
    settled = true;
    return answer;
  });
  await expect.poll(() => inbox.getSnapshot().length).toBe(1);
  // Past the longest single timer, well before expiresAt: nothing may end.
  await vi.advanceTimersByTimeAsync(25 * day);
  await inbox.refresh();
  expect(settled).toBe(false);
  expect(inbox.getSnapshot()).toEqual([request]);
  vi.useRealTimers();
  expect(await inbox.submit(accept(request))).toBe(true);
  expect(await waiting).toEqual(accept(request));
});
