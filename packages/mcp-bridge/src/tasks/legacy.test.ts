/**
 * 2025-11-25 task-backed calls through the bridge, against the v1 SDK's own experimental tasks
 * (`legacyTasksServer.ts`) over Streamable HTTP, with v1 and v2 (2025 handshake) clients.
 */
import { accept, cancel, type Answer, type Request } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeError } from '../bridgeError';
import { openClient, textOf, type ClientKind, type OpenClient } from '../__fixtures__/clients';
import { startLegacyTasksServer, type LegacyTasksServer } from '../__fixtures__/legacyTasksServer';

let server: LegacyTasksServer;
beforeAll(async () => {
  server = await startLegacyTasksServer();
});
afterAll(async () => {
  await server.close();
});

/** A person who answers each question by its form's only field (url: accept). */
const answerFor = (request: Request): Answer => {
  if (request.kind !== 'input') return accept(request);
  const schema = request.data?.schema as { properties?: Record<string, unknown> } | undefined;
  const key = Object.keys(schema?.properties ?? {})[0] ?? 'x';
  return accept(request, { [key]: `${key}-value` });
};

/** The first request logged after `from` whose method is `method`, for task `taskId`. */
const logged = (from: number, method: string, taskId?: string) =>
  server.log
    .slice(from)
    .filter(
      (entry) =>
        entry.method === method && (taskId === undefined || entry.params['taskId'] === taskId),
    );

/** Resolves once `predicate` holds, checked on every bridge event and at each server poll. */
function until(predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (predicate() ? resolve() : setTimeout(check, 5));
    check();
  });
}

describe.each<ClientKind>(['v1', 'v2-legacy'])('2025-11-25 tasks, %s client', (kind) => {
  const open = async (waitFor: (request: Request) => Promise<Answer>) =>
    openClient(kind, 'http', { url: server.url }, { waitFor });

  it('a task-required tool is called with a task and returns its final result', async () => {
    const seen: Request[] = [];
    const from = server.log.length;
    const client = await open(async (request) => (seen.push(request), answerFor(request)));
    try {
      const result = await client.bridge.callTool({ name: 'ask_region' });
      expect(textOf(result)).toBe('region=region-value');
      const call = logged(from, 'tools/call')[0];
      expect(call?.params['task']).toEqual({});
      const taskId = server.answers.at(-1)?.taskId;
      expect(taskId).toMatch(/^[0-9a-f]{32}$/);
      expect(logged(from, 'tasks/get', taskId).length).toBeGreaterThan(0);
      expect(logged(from, 'tasks/result', taskId)).toHaveLength(1);
      // The question reached waitFor once, naming the server, the tool and the task.
      expect(seen).toHaveLength(1);
      expect(seen[0]?.data?.origin).toMatchObject({
        server: 'legacy-tasks-fixture',
        tool: 'ask_region',
        taskId,
      });
    } finally {
      await client.close();
    }
  });

  it('three questions pushed at once reach waitFor concurrently, once each, with the taskId', async () => {
    const seen: Request[] = [];
    let release: () => void = () => undefined;
    const allThree = new Promise<void>((resolve) => (release = resolve));
    const client = await open(async (request) => {
      seen.push(request);
      if (seen.length === 3) release();
      // No answer before all three are open: they are asked concurrently.
      await allThree;
      return answerFor(request);
    });
    try {
      const result = await client.bridge.callTool({ name: 'ask_three' });
      expect(textOf(result)).toBe('a=a-value b=b-value c=accept');
      expect(seen.map((request) => request.kind).sort()).toEqual([
        'authorization',
        'input',
        'input',
      ]);
      const taskIds = new Set(seen.map((request) => request.data?.origin?.taskId));
      expect(taskIds.size).toBe(1);
      expect([...taskIds][0]).toBe(server.answers.at(-1)?.taskId);
    } finally {
      await client.close();
    }
  });

  it('a failed task (isError in 2025-11-25) is a typed task_failed error', async () => {
    const client = await open(async (request) => answerFor(request));
    try {
      const error = await client.bridge
        .callTool({ name: 'fail' })
        .catch((caught: unknown) => caught);
      expect(BridgeError.isInstance(error)).toBe(true);
      expect((error as BridgeError).code).toBe('task_failed');
      expect((error as BridgeError).message).toContain('it failed');
    } finally {
      await client.close();
    }
  });

  it('a task without questions completes after polling', async () => {
    const client = await open(async (request) => cancel(request));
    try {
      const result = await client.bridge.callTool({ name: 'slow', arguments: { ms: 120 } });
      expect(textOf(result)).toBe('slow done');
    } finally {
      await client.close();
    }
  });

  it('giving up on the call sends tasks/cancel and ends the open question, the person told', async () => {
    const from = server.log.length;
    const controller = new AbortController();
    const ended: unknown[] = [];
    let asked: Request | undefined;
    const client: OpenClient = await open(
      (request, context?: { signal?: AbortSignal }) =>
        new Promise<Answer>((resolve) => {
          asked = request;
          context?.signal?.addEventListener('abort', () => {
            ended.push(context.signal?.reason);
            resolve(cancel(request));
          });
          controller.abort(new Error('the host gave up'));
        }) as Promise<Answer>,
    );
    try {
      const error = await client.bridge
        .callTool({ name: 'hold' }, { signal: controller.signal })
        .catch((caught: unknown) => caught);
      expect((error as BridgeError).code).toBe('aborted');
      const taskId = asked?.data?.origin?.taskId;
      expect(typeof taskId).toBe('string');
      await until(() => logged(from, 'tasks/cancel', taskId).length === 1);
      await until(() => ended.length === 1);
      expect(ended).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('a task the server cancels while its question is open ends the call and the question', async () => {
    const ended: unknown[] = [];
    const client = await open(
      (request, context?: { signal?: AbortSignal }) =>
        new Promise<Answer>((resolve) => {
          const taskId = request.data?.origin?.taskId as string;
          context?.signal?.addEventListener('abort', () => {
            ended.push(context.signal?.reason);
            resolve(cancel(request));
          });
          void server.cancelTask(taskId);
        }) as Promise<Answer>,
    );
    try {
      const error = await client.bridge
        .callTool({ name: 'hold' })
        .catch((caught: unknown) => caught);
      expect((error as BridgeError).code).toBe('task_cancelled');
      await until(() => ended.length === 1);
    } finally {
      await client.close();
    }
  });
});
