/**
 * Task-backed calls (Tasks extension 2026-07-28) against the SEP-2663 test server over Streamable
 * HTTP with real v2 clients: waiting, the questions' de-duplication and concurrency, partial
 * tasks/update, withdrawn questions, cancelled and failed tasks, the Mcp-Name header.
 */
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  heldPerson,
  openClient,
  scriptedPerson,
  textOf,
  type OpenClient,
} from '../__fixtures__/clients';
import { rejection } from '../__fixtures__/hostileHelpers';
import { startTasksServer, type TasksServer } from '../__fixtures__/tasksServer';
import { runClockUntilSettled, useTestClock } from '../__fixtures__/testClock';
import type { Bridge } from '../attachWaitFor';

let server: TasksServer;
beforeAll(async () => {
  server = await startTasksServer({ pollInterval: 50 });
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const accept = (request: Request, data?: Record<string, unknown>): Answer => ({
  id: request.id,
  ok: true,
  ...(data !== undefined && { data }),
});

/** The tasks/* requests the server received for `taskId`, of `method` when given. */
const logOf = (taskId: unknown, method?: string) =>
  server.log.filter(
    (entry) =>
      entry.params['taskId'] === taskId && (method === undefined || entry.method === method),
  );

/** Resolves once `condition` holds, checked after each turn of real I/O (no fixed sleep). */
async function until(condition: () => boolean, fake = false): Promise<void> {
  for (let turn = 0; turn < 20_000 && !condition(); turn++) {
    if (fake) await vi.advanceTimersByTimeAsync(10);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!condition()) throw new Error('condition never held');
}

async function open(waitFor: WaitFor, path: 'attachWaitFor' | 'connect' = 'attachWaitFor') {
  return openClient('v2-modern', 'http', { url: server.url }, { waitFor }, path);
}

const bridgeOf = (client: OpenClient) => client.bridge as unknown as Bridge;

describe.each(['attachWaitFor', 'connect'] as const)('task-backed callTool (%s)', (path) => {
  it('waits for the task and returns its result, the question an ordinary Request', async () => {
    const person = scriptedPerson((request) => accept(request, { region: 'eu' }));
    const client = await open(person.waitFor, path);
    try {
      const result = await client.bridge.callTool({ name: 'ask_region' });
      expect(textOf(result)).toBe('region=eu');
      expect(person.seen).toHaveLength(1);
      const origin = person.seen[0]!.data!.origin!;
      expect(origin).toMatchObject({
        server: 'tasks-fixture',
        tool: 'ask_region',
        inputKey: 'region',
      });
      expect(typeof origin.taskId).toBe('string');
      expect(
        logOf(origin.taskId, 'tasks/update').map((entry) => entry.params['inputResponses']),
      ).toEqual([{ region: { action: 'accept', content: { region: 'eu' } } }]);
    } finally {
      await client.close();
    }
  });
});

describe('the questions of a task', () => {
  it('asks a key repeated over ten polls once', async () => {
    useTestClock();
    const person = heldPerson();
    const client = await open(person.waitFor);
    try {
      const call = client.bridge.callTool({ name: 'ask_region' });
      await until(() => person.open.length > 0, true);
      const taskId = person.open[0]!.request.data!.origin!.taskId;
      // Ten polls of the same outstanding key, on the test's clock.
      await until(() => logOf(taskId, 'tasks/get').length >= 10, true);
      person.open[0]!.answer(accept(person.open[0]!.request, { region: 'us' }));
      expect(textOf(await runClockUntilSettled(call, 10))).toBe('region=us');
      expect(person.open).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('asks the three keys of one status at once, and sends each answer alone (a partial map)', async () => {
    const person = heldPerson();
    const client = await open(person.waitFor);
    try {
      const call = client.bridge.callTool({ name: 'ask_three' });
      // All three are open before any is answered: asked concurrently.
      await until(() => person.open.length === 3);
      const byKey = Object.fromEntries(
        person.open.map((item) => [item.request.data!.origin!.inputKey, item]),
      );
      const taskId = person.open[0]!.request.data!.origin!.taskId;
      byKey['a']!.answer(accept(byKey['a']!.request, { a: '1' }));
      await until(() => logOf(taskId, 'tasks/update').length === 1);
      expect(logOf(taskId, 'tasks/update')[0]!.params['inputResponses']).toEqual({
        a: { action: 'accept', content: { a: '1' } },
      });
      // b and c are still open, never asked again.
      expect(bridgeOf(client).openRequests()).toHaveLength(2);
      byKey['b']!.answer(accept(byKey['b']!.request, { b: '2' }));
      byKey['c']!.answer(accept(byKey['c']!.request));
      expect(textOf(await call)).toBe('a=1, b=2, c=accept');
      const updates = logOf(taskId, 'tasks/update').map((entry) =>
        Object.keys(entry.params['inputResponses'] as object),
      );
      expect(updates.sort()).toEqual([['a'], ['b'], ['c']]);
      expect(person.open).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  it('asks a later status’s new key once the first is answered', async () => {
    const person = scriptedPerson((request) =>
      accept(request, {
        [String(request.data!.origin!.inputKey)]: `v${request.data!.origin!.inputKey}`,
      }),
    );
    const client = await open(person.waitFor);
    try {
      expect(textOf(await client.bridge.callTool({ name: 'ask_twice' }))).toBe(
        'first=vfirst, second=vsecond',
      );
      expect(person.seen.map((request) => request.data!.origin!.inputKey)).toEqual([
        'first',
        'second',
      ]);
    } finally {
      await client.close();
    }
  });

  it('ends an open question when the server cancels its task, telling the person why', async () => {
    const person = heldPerson();
    const client = await open(person.waitFor);
    const answers: Answer[] = [];
    bridgeOf(client).on('answer', ({ answer }) => answers.push(answer));
    try {
      const call = client.bridge.callTool({ name: 'hold' });
      await until(() => person.open.length === 1);
      const { request, signal } = person.open[0]!;
      server.cancelTask(String(request.data!.origin!.taskId));
      const error = await rejection(call);
      expect(error.code).toBe('task_cancelled');
      expect(signal?.aborted).toBe(true);
      expect(String((signal?.reason as Error).message)).toMatch(/The task was cancelled/);
      expect(answers).toEqual([{ id: request.id, ok: false, reason: 'cancelled' }]);
    } finally {
      await client.close();
    }
  });

  it('re-asks an invalid form under a fresh id and sends only the valid answer', async () => {
    const person = scriptedPerson((request, index) =>
      accept(request, index === 0 ? {} : { region: 'eu' }),
    );
    const client = await open(person.waitFor);
    try {
      expect(textOf(await client.bridge.callTool({ name: 'ask_region' }))).toBe('region=eu');
      expect(person.seen).toHaveLength(2);
      expect(person.seen[1]!.id).not.toBe(person.seen[0]!.id);
      expect(person.seen[1]!.data!.errors).toBeDefined();
      expect(logOf(person.seen[0]!.data!.origin!.taskId, 'tasks/update')).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('the caller’s abort ends the call, its question, and asks the server to cancel the task', async () => {
    const person = heldPerson();
    const client = await open(person.waitFor);
    try {
      const controller = new AbortController();
      const call = client.bridge.callTool({ name: 'hold' }, { signal: controller.signal });
      await until(() => person.open.length === 1);
      const taskId = person.open[0]!.request.data!.origin!.taskId;
      controller.abort();
      expect((await rejection(call)).code).toBe('aborted');
      expect(person.open[0]!.signal?.aborted).toBe(true);
      await until(() => logOf(taskId, 'tasks/cancel').length === 1);
    } finally {
      await client.close();
    }
  });

  it('a failed task is task_failed with its JSON-RPC error', async () => {
    const client = await open(scriptedPerson((request) => accept(request)).waitFor);
    try {
      const error = await rejection(client.bridge.callTool({ name: 'fail' }));
      expect(error.code).toBe('task_failed');
      expect(error.rpc).toMatchObject({ code: -32603, message: 'fail: the tool failed' });
    } finally {
      await client.close();
    }
  });

  it('a tool error (isError) completes the task with the result', async () => {
    const client = await open(scriptedPerson((request) => accept(request)).waitFor);
    try {
      const result = await client.bridge.callTool({ name: 'failing_job' });
      expect(result).toMatchObject({ isError: true });
    } finally {
      await client.close();
    }
  });

  it('sends Mcp-Name: <taskId> on every tasks/* request', async () => {
    const person = scriptedPerson((request) => accept(request, { region: 'eu' }));
    const client = await open(person.waitFor);
    try {
      await client.bridge.callTool({ name: 'ask_region' });
      const entries = logOf(person.seen[0]!.data!.origin!.taskId);
      expect(new Set(entries.map((entry) => entry.method))).toEqual(
        new Set(['tasks/get', 'tasks/update']),
      );
      for (const entry of entries) expect(entry.headers['mcp-name']).toBe(entry.params['taskId']);
    } finally {
      await client.close();
    }
  });
});

describe('bridge.tasks', () => {
  it('starts a task as a handle, cancels it with tasks/cancel, and its result says so', async () => {
    const person = heldPerson();
    const client = await open(person.waitFor);
    try {
      const handle = await bridgeOf(client).tasks.start({ name: 'hold' });
      expect(handle.taskId).not.toBe('');
      expect(await handle.status()).toMatchObject({ taskId: handle.taskId });
      const result = handle.result();
      await until(() => person.open.length === 1);
      await handle.cancel();
      expect(logOf(handle.taskId, 'tasks/cancel')).toHaveLength(1);
      expect((await rejection(result)).code).toBe('task_cancelled');
      expect(person.open[0]!.signal?.aborted).toBe(true);
      expect(await bridgeOf(client).tasks.get(handle.taskId)).toMatchObject({
        status: 'cancelled',
      });
    } finally {
      await client.close();
    }
  });

  it('a call the server answers without a task is a finished handle', async () => {
    const client = await open(scriptedPerson((request) => accept(request)).waitFor);
    try {
      const handle = await bridgeOf(client).tasks.start({
        name: 'greet',
        arguments: { name: 'Ann' },
      });
      expect(textOf(await handle.result())).toBe('Hello, Ann!');
      expect((await rejection(bridgeOf(client).tasks.list())).code).toBe('invalid_options');
    } finally {
      await client.close();
    }
  });

  it('an input_required round before the task is answered by retry, then the task is waited for', async () => {
    const person = scriptedPerson((request) => accept(request, { name: 'Bo' }));
    const client = await open(person.waitFor);
    try {
      expect(textOf(await client.bridge.callTool({ name: 'test_tool_with_task' }))).toBe(
        'Hello, Bo!',
      );
      expect(person.seen[0]!.data!.origin!.taskId).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
