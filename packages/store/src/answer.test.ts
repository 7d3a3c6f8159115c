/**
 * What the synchronous `answer` can promise: true only for a question open in this inbox's
 * snapshot and not already answered here; once the store settles it (won or lost), it leaves this
 * snapshot at once, without waiting for the notice, so a second answer here is false.
 */
import { accept } from '@waitfor/core';
import { afterEach, expect, it } from 'vitest';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';

let fleet: Fleet | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

const request = { id: 'deploy', kind: 'approval', prompt: 'Deploy now?' };

it('answers false for a question already answered here, even before any notice arrives', async () => {
  fleet = await drivers.pglite({ pollMs: 0 });
  const inboxA = await fleet.a.inbox('ops');
  const inboxB = await fleet.b.inbox('ops');
  const waiting = inboxA.waitFor(request);
  await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
  // Someone else settled it in a way that sends no notice: B's snapshot is stale.
  await fleet.query(
    `UPDATE waitfor_questions SET state = 'answered', outcome = 'accepted',
      answer = '{"id":"deploy","ok":true}', ended_at = now() WHERE id = 'deploy'`,
  );
  // Synchronous: B can only say it sent the answer.
  expect(inboxB.answer(accept(request))).toBe(true);
  expect(inboxB.answer(accept(request))).toBe(false);
  // The store said no: B drops the question itself, and a second answer here is refused.
  await expect.poll(() => inboxB.getSnapshot()).toEqual([]);
  expect(inboxB.answer(accept(request))).toBe(false);
  await inboxA.refresh();
  expect(await waiting).toEqual({ id: 'deploy', ok: true });
});

it('drops a question it won from its own snapshot once the store has recorded the answer', async () => {
  fleet = await drivers.pglite({ pollMs: 0 });
  const inboxA = await fleet.a.inbox('ops');
  const waiting = inboxA.waitFor(request);
  await expect.poll(() => inboxA.getSnapshot().length).toBe(1);
  expect(inboxA.answer(accept(request))).toBe(true);
  expect(await waiting).toEqual(accept(request));
  expect(inboxA.getSnapshot()).toEqual([]);
  expect(inboxA.answer(accept(request))).toBe(false);
});
