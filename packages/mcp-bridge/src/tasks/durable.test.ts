/**
 * Durable task-backed calls against the SEP-2663 test server: a TaskSuspension survives JSON and is
 * resumed from another bridge (another client connection); empty answers watch; a forged or
 * foreign reference is refused before anything is sent.
 */
import type { Answer, Request } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClient, textOf, type OpenClient } from '../__fixtures__/clients';
import { rejection } from '../__fixtures__/hostileHelpers';
import { startTasksServer, type TasksServer } from '../__fixtures__/tasksServer';
import type { Bridge } from '../attachWaitFor';
import { parseSuspension } from '../eras';
import type { TaskSuspension } from '../types';

let server: TasksServer;
beforeAll(async () => {
  server = await startTasksServer({ pollInterval: 50 });
});
afterAll(async () => {
  await server.close();
});

const nobody = async (request: Request): Promise<Answer> => ({
  id: request.id,
  ok: false,
  reason: 'cancelled',
});

async function bridge(serverId?: string): Promise<OpenClient & { b: Bridge }> {
  const client = await openClient(
    'v2-modern',
    'http',
    { url: server.url },
    { waitFor: nobody, ...(serverId && { serverId }) },
  );
  return { ...client, b: client.bridge as unknown as Bridge };
}

const logOf = (taskId: string, method?: string) =>
  server.log.filter(
    (entry) =>
      entry.params['taskId'] === taskId && (method === undefined || entry.method === method),
  );

/** A durable call's suspension, as a store would keep it (JSON). */
async function suspend(b: Bridge, name: string): Promise<TaskSuspension> {
  const outcome = await b.callTool({ name }, { durable: true });
  if (outcome.status !== 'suspended') throw new Error(`not suspended: ${JSON.stringify(outcome)}`);
  return JSON.parse(JSON.stringify(outcome.suspension)) as TaskSuspension;
}

describe('durable task-backed calls', () => {
  it('suspends with a JSON reference, resumed in another bridge to completion', async () => {
    const first = await bridge();
    const second = await bridge();
    try {
      const suspension = await suspend(first.b, 'ask_twice');
      expect(suspension).toMatchObject({
        version: 1,
        kind: 'task',
        server: 'tasks-fixture@1.0.0',
        answered: [],
      });
      expect(Object.keys(suspension.inputRequests)).toEqual(['first']);
      expect(suspension.requests[0]!.data!.origin).toMatchObject({
        taskId: suspension.taskId,
        inputKey: 'first',
        tool: 'ask_twice',
      });
      expect(parseSuspension(suspension)).toEqual(suspension);
      await first.close();

      const [request] = suspension.requests;
      const next = await second.b.resume(suspension, [
        { id: request!.id, ok: true, data: { first: 'x' } },
      ]);
      if (next.status !== 'suspended') throw new Error('the second key was not suspended');
      const again = next.suspension as TaskSuspension;
      expect(again.answered).toEqual(['first']);
      expect(Object.keys(again.inputRequests)).toEqual(['second']);
      const done = await second.b.resume(again, [
        { id: again.requests[0]!.id, ok: true, data: { second: 'y' } },
      ]);
      expect(done.status).toBe('complete');
      expect(textOf((done as { result: unknown }).result)).toBe('first=x, second=y');
      // Each answer reached the server once, alone.
      expect(
        logOf(suspension.taskId, 'tasks/update').map((entry) => entry.params['inputResponses']),
      ).toEqual([
        { first: { action: 'accept', content: { first: 'x' } } },
        { second: { action: 'accept', content: { second: 'y' } } },
      ]);
    } finally {
      await second.close();
    }
  });

  it('empty answers watch: the watcher returns once another bridge answered', async () => {
    const [asker, watcher, answerer] = [await bridge(), await bridge(), await bridge()];
    try {
      const suspension = await suspend(asker.b, 'ask_region');
      const watching = watcher.b.resume(suspension, []);
      const answered = await answerer.b.resume(suspension, [
        { id: suspension.requests[0]!.id, ok: true, data: { region: 'ap' } },
      ]);
      expect(answered.status).toBe('complete');
      const watched = await watching;
      expect(watched).toEqual(answered);
      expect(logOf(suspension.taskId, 'tasks/update')).toHaveLength(1);
    } finally {
      await Promise.all([asker.close(), watcher.close(), answerer.close()]);
    }
  });

  it('answers one of three: a partial tasks/update, the others suspended again', async () => {
    const client = await bridge();
    try {
      const suspension = await suspend(client.b, 'ask_three');
      expect(suspension.requests).toHaveLength(3);
      const a = suspension.requests.find((request) => request.data!.origin!.inputKey === 'a')!;
      const next = await client.b.resume(suspension, [{ id: a.id, ok: true, data: { a: '1' } }]);
      if (next.status !== 'suspended') throw new Error('not suspended');
      expect(Object.keys(next.suspension.inputRequests).sort()).toEqual(['b', 'c']);
      expect((next.suspension as TaskSuspension).answered).toEqual(['a']);
      expect(
        logOf(suspension.taskId, 'tasks/update').map((entry) => entry.params['inputResponses']),
      ).toEqual([{ a: { action: 'accept', content: { a: '1' } } }]);
      await client.b.tasks.cancel(suspension.taskId);
    } finally {
      await client.close();
    }
  });

  it('refuses a foreign or forged reference before anything is sent', async () => {
    const client = await bridge();
    const other = await bridge('another-server');
    try {
      const suspension = await suspend(client.b, 'ask_region');
      const answer = [{ id: suspension.requests[0]!.id, ok: true, data: { region: 'eu' } }];
      const before = logOf(suspension.taskId).length;
      expect((await rejection(other.b.resume(suspension, answer))).code).toBe('foreign_reference');
      const forged: unknown[] = [
        { ...suspension, taskId: 'x'.repeat(1024 * 1024) },
        { ...suspension, answered: ['region'] },
        {
          ...suspension,
          requests: [
            {
              ...suspension.requests[0]!,
              data: {
                ...suspension.requests[0]!.data,
                origin: { server: 's', taskId: 'other', inputKey: 'region' },
              },
            },
          ],
        },
        {
          ...suspension,
          inputRequests: {
            region: {
              method: 'elicitation/create',
              params: {
                mode: 'form',
                message: 'Other?',
                requestedSchema: { type: 'object', properties: {} },
              },
            },
          },
        },
        { ...suspension, kind: 'call' },
        { ...suspension, round: 0 },
      ];
      for (const value of forged)
        expect((await rejection(client.b.resume(value as TaskSuspension, answer))).code).toBe(
          'invalid_suspension',
        );
      // An answer to no Request of the reference.
      expect((await rejection(client.b.resume(suspension, [{ id: 'nope', ok: true }]))).code).toBe(
        'answer_mismatch',
      );
      expect(
        (await rejection(client.b.resume(suspension, [{ id: answer[0]!.id, ok: true, data: {} }])))
          .code,
      ).toBe('invalid_answer');
      expect(logOf(suspension.taskId)).toHaveLength(before);
      await client.b.tasks.cancel(suspension.taskId);
    } finally {
      await Promise.all([client.close(), other.close()]);
    }
  });

  it('a durable call whose task fails is task_failed; one cancelled while suspended, task_cancelled', async () => {
    const client = await bridge();
    try {
      const failed = await rejection(client.b.callTool({ name: 'fail' }, { durable: true }));
      expect(failed.code).toBe('task_failed');
      const suspension = await suspend(client.b, 'hold');
      server.cancelTask(suspension.taskId);
      expect((await rejection(client.b.resume(suspension, []))).code).toBe('task_cancelled');
    } finally {
      await client.close();
    }
  });
});
