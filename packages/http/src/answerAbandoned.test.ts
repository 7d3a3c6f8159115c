/**
 * An answer whose final word takes long, over a real Node http server: a task's question in
 * `@waitfor/store` whose task no host polls (its submit waits for a poller, here up to ten
 * minutes), asked by a real v2 client of the real 2026-07-28 tasks server. The browser that sent
 * the answer goes away: the route's wait for the final word must end with it, not hold on.
 */
import { request as httpRequest } from 'node:http';
import { accept } from '@waitfor/core';
import { createStore } from '@waitfor/store';
import type { Store } from '@waitfor/store';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TasksServer } from '../../mcp-bridge/src/__fixtures__/tasksServer';
import { startTasksServer } from '../../mcp-bridge/src/__fixtures__/tasksServer';
import type { TaskClient } from '../../store/src/__fixtures__/taskClient';
import { openTaskClient } from '../../store/src/__fixtures__/taskClient';
import type { AnswerableInbox } from './handler';
import type { Host } from './__tests__/host';
import { as, startHost } from './__tests__/host';

let tasks: TasksServer;
let store: Store;
let client: TaskClient;
let host: Host;
/** How each `submit` the handler made ended, in order. */
const submits: { settled?: string }[] = [];

beforeAll(async () => {
  tasks = await startTasksServer({ pollInterval: 50 });
  // Only the browser going away can end the wait within this test.
  store = await createStore({ pollMs: 0, taskAnswerWaitMs: 10 * 60_000 });
  client = await openTaskClient(tasks.url, 'maker');
  host = await startHost({
    name: 'store inbox, task question nobody polls',
    async open() {
      return {
        inboxFor: async (scope) => {
          const inbox = await store.inbox(scope);
          // The store's own inbox; each submit's end is recorded as it happens.
          const watched = Object.create(inbox) as AnswerableInbox;
          watched.submit = (...args: Parameters<AnswerableInbox['submit']>) => {
            const entry: { settled?: string } = {};
            submits.push(entry);
            const submitted = (inbox.submit as (...all: unknown[]) => Promise<boolean>)(...args);
            submitted.then(
              (won) => (entry.settled = `resolved ${won}`),
              (error: unknown) => (entry.settled = `rejected ${(error as Error).name}`),
            );
            return submitted;
          };
          return watched;
        },
        close: async () => {},
      };
    },
  });
});
afterAll(async () => {
  await host?.close();
  await client?.close();
  await store?.close();
  await tasks?.close();
});

it('a browser that goes away before the final word ends the wait; the answer stays given', async () => {
  const calls = store.durableCalls({ clientFor: () => client.bridge, work: false });
  const started = await calls.callTool('alice', 'tasks', { name: 'hold' });
  expect(started.status).toBe('waiting');
  const inbox = await host.inboxFor('alice');
  await expect.poll(() => inbox.getSnapshot().length).toBe(1);
  const question = inbox.getSnapshot()[0]!;

  const url = new URL(`${host.url}/requests/${encodeURIComponent(question.id)}/answer`);
  const sent = httpRequest(url, {
    method: 'POST',
    headers: { ...as('alice'), 'content-type': 'application/json' },
  });
  const outcome = new Promise<string>((resolve) => {
    sent.on('response', (response) => resolve(`response ${response.statusCode}`));
    sent.on('error', (error) => resolve(`error ${(error as NodeJS.ErrnoException).code}`));
  });
  sent.end(JSON.stringify(accept(question, { hold: 'eu' })));

  // The answer is stored (it left every snapshot) and the route waits for its final word.
  await expect.poll(() => inbox.getSnapshot()).toEqual([]);
  expect(submits).toHaveLength(1);
  expect(submits[0]!.settled).toBeUndefined();

  sent.destroy();
  expect(await outcome).toBe('error ECONNRESET');
  await expect.poll(() => submits[0]!.settled).toBe('rejected AbortError');
  // Still given: it may go through once a host polls the task; it was not taken back.
  expect(inbox.getSnapshot()).toEqual([]);
});
