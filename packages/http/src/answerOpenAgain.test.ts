/**
 * An answer that lost only because its question is open again is not told "ended": a task's
 * question in `@waitfor/store` whose task no host polls, asked by a real v2 client of the real
 * 2026-07-28 tasks server. The store gives the answer back at once (`taskAnswerWaitMs: 0`: no poller
 * took it) and asks the question again; the route answers 503 `unavailable` (send it again), the
 * question is listed again, and the remote inbox keeps it to answer again.
 */
import { accept } from '@waitfor/core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createRemoteInbox } from './remoteInbox';
import { as } from './__tests__/host';
import type { TaskHost } from './__tests__/taskHost';
import { startTaskHost } from './__tests__/taskHost';

let tasks: TaskHost;
beforeAll(async () => {
  tasks = await startTaskHost(0);
});
afterAll(async () => {
  await tasks?.close();
});

it('an answer given back (the question open again) is 503 unavailable, not 409; the page keeps the question', async () => {
  const { host } = tasks;
  const { inbox, question } = await tasks.ask('alice');

  const response = await fetch(`${host.url}/requests/${encodeURIComponent(question.id)}/answer`, {
    method: 'POST',
    headers: { ...as('alice'), 'content-type': 'application/json' },
    body: JSON.stringify(accept(question, { hold: 'eu' })),
  });
  expect(response.status).toBe(503);
  expect(await response.json()).toEqual({
    error: 'unavailable',
    message: 'The question is open again: send the answer again.',
  });
  // Asked again: every inbox lists it, and it has not ended.
  await expect.poll(() => inbox.getSnapshot().map((open) => open.id)).toEqual([question.id]);
  expect(await inbox.ended?.(question.id)).toBeUndefined();

  // The page's remote inbox: not "ended", kept to answer again, the error says to retry.
  const remote = createRemoteInbox({ url: host.url, headers: as('alice'), retryMs: 20 });
  try {
    await vi.waitFor(() => expect(remote.getSnapshot()).toHaveLength(1));
    expect(await remote.submit(accept(question, { hold: 'us' }))).toBe(false);
    expect(remote.getAnswerError(question.id)).toMatchObject({ code: 'unavailable', status: 503 });
    expect(remote.getAnswerError(question.id)?.ended).toBeUndefined();
    await vi.waitFor(() =>
      expect(remote.getSnapshot().map((open) => open.id)).toEqual([question.id]),
    );
  } finally {
    remote.close();
  }
});
