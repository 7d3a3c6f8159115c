/**
 * An answer that lost only because its question is open again is not told "ended": a task's
 * question in `@waitfor/store` whose task no host polls, asked by a real v2 client of the real
 * 2026-07-28 tasks server. The store gives the answer back at once (`taskAnswerWaitMs: 0`: no poller
 * took it) and asks the question again; the route answers 503 `unavailable` (send it again), the
 * question is listed again, and the remote inbox keeps it to answer again.
 */
import { accept } from '@waitfor/core';
import { createStore } from '@waitfor/store';
import type { Store } from '@waitfor/store';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { TasksServer } from '../../mcp-bridge/src/__fixtures__/tasksServer';
import { startTasksServer } from '../../mcp-bridge/src/__fixtures__/tasksServer';
import type { TaskClient } from '../../store/src/__fixtures__/taskClient';
import { openTaskClient } from '../../store/src/__fixtures__/taskClient';
import { createRemoteInbox } from './remoteInbox';
import type { Host } from './__tests__/host';
import { as, startHost } from './__tests__/host';

let tasks: TasksServer;
let store: Store;
let client: TaskClient;
let host: Host;

beforeAll(async () => {
  tasks = await startTasksServer({ pollInterval: 50 });
  store = await createStore({ pollMs: 0, taskAnswerWaitMs: 0 });
  client = await openTaskClient(tasks.url, 'maker');
  host = await startHost({
    name: 'store inbox, task question nobody polls',
    async open() {
      return { inboxFor: (scope) => store.inbox(scope), close: async () => {} };
    },
  });
});
afterAll(async () => {
  await host?.close();
  await client?.close();
  await store?.close();
  await tasks?.close();
});

it('an answer given back (the question open again) is 503 unavailable, not 409; the page keeps the question', async () => {
  const calls = store.durableCalls({ clientFor: () => client.bridge, work: false });
  const started = await calls.callTool('alice', 'tasks', { name: 'hold' });
  expect(started.status).toBe('waiting');
  const inbox = await host.inboxFor('alice');
  await expect.poll(() => inbox.getSnapshot().length).toBe(1);
  const question = inbox.getSnapshot()[0]!;

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
