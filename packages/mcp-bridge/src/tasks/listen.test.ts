/**
 * Where the server offers `subscriptions/listen`, a task's statuses are pushed and the bridge sends
 * no tasks/get; the questions are asked, answered and sent as when polling.
 */
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClient, scriptedPerson, textOf } from '../__fixtures__/clients';
import { startTasksServer, type TasksServer } from '../__fixtures__/tasksServer';
import type { Bridge } from '../attachWaitFor';
import type { TaskSuspension } from '../types';

let server: TasksServer;
beforeAll(async () => {
  server = await startTasksServer({ listen: true, pollInterval: 50 });
});
afterAll(async () => {
  await server.close();
});

/** A v2 client on the 2026-07-28 listen server. */
const open = (waitFor: WaitFor) =>
  openClient('v2-modern', 'http', { url: server.url }, { waitFor });

const accept = (request: Request): Answer => ({
  id: request.id,
  ok: true,
  data: { [String(request.data!.origin!.inputKey)]: 'v' },
});
const logOf = (taskId: unknown, method: string) =>
  server.log.filter((entry) => entry.params['taskId'] === taskId && entry.method === method);

describe('task status through subscriptions/listen', () => {
  it('asks and completes from pushed statuses alone (no tasks/get)', async () => {
    const person = scriptedPerson(accept);
    const client = await open(person.waitFor);
    try {
      expect(textOf(await client.bridge.callTool({ name: 'ask_twice' }))).toBe('first=v, second=v');
      const taskId = person.seen[0]!.data!.origin!.taskId;
      expect(person.seen.map((request) => request.data!.origin!.inputKey)).toEqual([
        'first',
        'second',
      ]);
      expect(logOf(taskId, 'tasks/update')).toHaveLength(2);
      expect(logOf(taskId, 'tasks/get')).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a durable call suspends and resumes from pushed statuses', async () => {
    const client = await open(scriptedPerson(accept).waitFor);
    const bridge = client.bridge as unknown as Bridge;
    try {
      const outcome = await bridge.callTool({ name: 'ask_region' }, { durable: true });
      if (outcome.status !== 'suspended') throw new Error('not suspended');
      const suspension = outcome.suspension as TaskSuspension;
      const done = await bridge.resume(suspension, [accept(suspension.requests[0]!)]);
      expect(textOf((done as { result: unknown }).result)).toBe('region=v');
      expect(logOf(suspension.taskId, 'tasks/get')).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
