import { boundWaitFor } from '@waitfor/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from './index';
import { createStore, maxIdLength, maxScopeLength, StoreError } from './index';

// The embedded default: the bounds are the store's own, the same on every driver.
let store: Store;
beforeAll(async () => {
  store = await createStore({ pollMs: 0 });
});
afterAll(async () => {
  await store?.close();
});

it('refuses a scope that is empty or too long', async () => {
  for (const scope of ['', 'x'.repeat(maxScopeLength + 1), 42 as unknown as string]) {
    const refused = await store.inbox(scope).catch((error: unknown) => error);
    expect(StoreError.isInstance(refused) && refused.code).toBe('invalid_options');
  }
});

it('refuses a Request whose id or size is beyond what the store keeps, with nothing stored', async () => {
  const inbox = await store.inbox('bounds');
  await expect(
    inbox.waitFor({ id: 'i'.repeat(maxIdLength + 1), kind: 'question', prompt: 'Too long an id' }),
  ).rejects.toMatchObject({ code: 'invalid_request', path: 'id' });
  // A server's prompt of several megabytes is not written to the database.
  await expect(
    inbox.waitFor({ id: 'huge', kind: 'question', prompt: 'p'.repeat(2_000_000) }),
  ).rejects.toMatchObject({ code: 'invalid_request' });
  await inbox.refresh();
  expect(inbox.getSnapshot()).toEqual([]);
});

it('serves a waitFor consumer as it is: boundWaitFor over the store inbox ends on its own timeout', async () => {
  const inbox = await store.inbox('consumer');
  const waitFor = boundWaitFor(inbox.waitFor, { timeoutMs: 200 });
  const answer = await waitFor({ id: 'bounded', kind: 'approval', prompt: 'Proceed?' });
  expect(answer).toEqual({ id: 'bounded', ok: false, reason: 'expired' });
  // The bound aborted the inner wait: the store ended the question for everyone.
  await expect.poll(() => inbox.getSnapshot()).toEqual([]);
  const again = await store.inbox('consumer');
  expect(again.getSnapshot()).toEqual([]);
});
