/**
 * An answer whose final word takes long, over a real Node http server: a task's question in
 * `@waitfor/store` whose task no host polls (its submit waits for a poller, here up to ten
 * minutes), asked by a real v2 client of the real 2026-07-28 tasks server. The browser that sent
 * the answer goes away: the route's wait for the final word must end with it, not hold on.
 */
import { request as httpRequest } from 'node:http';
import { accept } from '@waitfor/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AnswerableInbox } from './handler';
import type { Host } from './__tests__/host';
import { as } from './__tests__/host';
import type { TaskHost } from './__tests__/taskHost';
import { startTaskHost } from './__tests__/taskHost';

let tasks: TaskHost;
let host: Host;
/** How each `submit` the handler made ended, in order. */
const submits: { settled?: string }[] = [];

beforeAll(async () => {
  // Only the browser going away can end the wait within this test.
  tasks = await startTaskHost(10 * 60_000, (inbox) => {
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
  });
  ({ host } = tasks);
});
afterAll(async () => {
  await tasks?.close();
});

it('a browser that goes away before the final word ends the wait; the answer stays given', async () => {
  const { inbox, question } = await tasks.ask('alice');

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
