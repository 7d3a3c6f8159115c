/**
 * The host as receiver of 2025-11-25 task-augmented elicitation/create: a real v1 SDK server
 * (`server.experimental.tasks.elicitInputStream` and task-augmented `request`) over Streamable
 * HTTP, to bridges on v1 and v2 (2025 handshake) clients; the receiver's ttl on a fake clock.
 */
import { Client as V2Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as v1Types from '@modelcontextprotocol/sdk/types.js';
import { accept, cancel, type Answer, type Request, type WaitForContext } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openClient, textOf, type ClientKind } from '../__fixtures__/clients';
import { startLegacyTasksServer, type LegacyTasksServer } from '../__fixtures__/legacyTasksServer';
import { attachWaitFor } from '../attachWaitFor';
import { elicitationCapabilities } from '../capabilities';
import { createTaskReceiver } from './receiver';

let server: LegacyTasksServer;
beforeAll(async () => {
  server = await startLegacyTasksServer();
});
afterAll(async () => {
  await server.close();
});

/** Resolves once `predicate` holds (checked every few ms: it waits for an event, decides nothing). */
const until = (predicate: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (predicate() ? resolve() : setTimeout(check, 5));
    check();
  });

type Person = (request: Request, context?: WaitForContext) => Promise<Answer>;

/** A person who never answers (every task stays open, so none makes room), counting what is asked. */
function neverAnswered() {
  let asked = 0;
  const waitFor: Person = (request, context) =>
    new Promise<Answer>((resolve) => {
      asked++;
      context?.signal?.addEventListener('abort', () => resolve(cancel(request)));
    });
  return { waitFor, asked: () => asked };
}

// The v2 client (2.4.0) cannot receive them: it checks the handler's answer as an ElicitResult.
describe.each<ClientKind>(['v1'])('receiving task-augmented elicitation, %s client', (kind) => {
  const open = (waitFor: Person, taskElicitation: unknown = { pollInterval: 50 }) =>
    openClient(
      kind,
      'http',
      { url: server.url },
      {
        waitFor,
        taskElicitation: taskElicitation as never,
      },
    );

  it('answers with a task at once; the server polls it, and tasks/result returns the answer', async () => {
    const seen: Request[] = [];
    const from = server.streamed.length;
    const client = await open(async (request) => {
      seen.push(request);
      // Still unanswered while the server already holds its task and polls it.
      await until(() => server.streamed.slice(from).includes('taskStatus:working'));
      return accept(request, { later: 'tomorrow' });
    });
    try {
      const result = await client.bridge.callTool({ name: 'ask_later' });
      expect(textOf(result)).toMatch(/^created:60000 answer:/);
      const answer = JSON.parse(textOf(result).replace(/^created:\d+ answer:/, '')) as Record<
        string,
        unknown
      >;
      expect(answer).toMatchObject({ action: 'accept', content: { later: 'tomorrow' } });
      expect(server.streamed.slice(from)).toEqual(
        expect.arrayContaining([
          'taskCreated',
          'taskStatus:working',
          'taskStatus:completed',
          'result',
        ]),
      );
      expect(seen).toHaveLength(1);
      expect(typeof seen[0]?.data?.origin?.taskId).toBe('string');
    } finally {
      await client.close();
    }
  });

  it('tasks/cancel from the server ends the open question, the person told', async () => {
    const reasons: unknown[] = [];
    const client = await open(
      (request, context) =>
        new Promise<Answer>((resolve) => {
          context?.signal?.addEventListener('abort', () => {
            reasons.push(context.signal?.reason);
            resolve(cancel(request));
          });
          server.proceed();
        }),
    );
    try {
      const result = await client.bridge.callTool({ name: 'cancel_later' });
      expect(textOf(result)).toBe('cancelled:cancelled');
      await until(() => reasons.length === 1);
      expect(String((reasons[0] as Error).message)).toMatch(/withdrew/);
    } finally {
      await client.close();
    }
  });

  it('a huge ttl is cut to maxTtl', async () => {
    const client = await open(async (request) => accept(request, { later: 'x' }), {
      pollInterval: 50,
      maxTtl: 120_000,
    });
    try {
      const result = await client.bridge.callTool({ name: 'ask_later', arguments: { ttl: 1e12 } });
      expect(textOf(result)).toMatch(/^created:120000 answer:/);
    } finally {
      await client.close();
    }
  });

  it('a v2 client cannot receive them: opting in is refused at attach', () => {
    const client = new V2Client({ name: 'waitfor-test', version: '1.0.0' });
    expect(() =>
      attachWaitFor(client, { waitFor: async (request) => cancel(request), taskElicitation: true }),
    ).toThrow(/needs a v1 client/);
  });

  it('a flood over HTTP past maxTasks: at most maxTasks are kept, the rest refused', async () => {
    const flood = neverAnswered();
    const client = await open(flood.waitFor, { pollInterval: 50, maxTasks: 20 });
    try {
      const result = await client.bridge.callTool({ name: 'flood', arguments: { count: 200 } });
      expect(textOf(result)).toBe('created=20 refused=180 codes=-32602');
      expect(flood.asked()).toBe(20);
    } finally {
      await client.close();
    }
  });

  it.each([
    ['a task id the receiver did not create is not found (-32602)', undefined, 'error:-32602'],
    [
      'without the option, no tasks capability is declared and tasks/get is not served',
      false,
      'error:-32601',
    ],
  ])('%s', async (_name, taskElicitation, expected) => {
    const client = await open(async (request) => cancel(request), taskElicitation);
    try {
      const taskId = 'not-a-task-of-this-host';
      const result = await client.bridge.callTool({ name: 'probe_task', arguments: { taskId } });
      expect(textOf(result)).toBe(expected);
    } finally {
      await client.close();
    }
  });
});

describe('a flood of 10 000 task-augmented elicitations, v1 client and server in memory', () => {
  it('keeps maxTasks, refuses every other one with -32602, and asks the person maxTasks times', async () => {
    const flood = neverAnswered();
    const client = new V1Client({ name: 'waitfor-test', version: '1.0.0' });
    const attachment = attachWaitFor(client, {
      waitFor: flood.waitFor,
      taskElicitation: { maxTasks: 20 },
      v1Schemas: v1Types,
    });
    await attachment.ready;
    await client.connect(await server.memoryTransport());
    try {
      const result = await attachment.callTool(
        { name: 'flood', arguments: { count: 10_000 } },
        // The server's 10 000 requests are the work here, not a person's time.
        { timeout: 600_000 },
      );
      // Counted, not timed: each refusal is the protocol's, and no refused question reached waitFor.
      expect(textOf(result)).toBe('created=20 refused=9980 codes=-32602');
      expect(flood.asked()).toBe(20);
      expect(attachment.openRequests()).toHaveLength(20);
    } finally {
      await client.close();
    }
  }, 600_000);
});

describe('the receiver on its own', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('declares tasks for elicitation only when the host opts in', () => {
    const waitFor = async (request: Request) => cancel(request);
    expect(elicitationCapabilities({ waitFor }).tasks).toBeUndefined();
    expect(elicitationCapabilities({ waitFor, taskElicitation: true }).tasks).toEqual({
      list: {},
      cancel: {},
      requests: { elicitation: { create: {} } },
    });
  });

  it('past its ttl a task ends its question as expired and is forgotten', async () => {
    vi.useFakeTimers();
    const receiver = createTaskReceiver({ maxTtl: 1_000 });
    let reason: unknown;
    const created = receiver.create(
      { task: { ttl: 5_000 } },
      (_taskId, signal) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            resolve({ action: 'cancel' });
          }),
        ),
    ) as { task: { taskId: string; ttl: number } };
    expect(created.task.ttl).toBe(1_000);
    const taskId = created.task.taskId;
    await expect(receiver.handle('tasks/get', { taskId })).resolves.toMatchObject({
      status: 'working',
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(reason).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(String((reason as Error).message)).toMatch(/expired/);
    await expect(receiver.handle('tasks/get', { taskId })).rejects.toMatchObject({ code: -32602 });
  });

  it('refuses options that are not whole numbers ≥ 1', () => {
    expect(() => createTaskReceiver({ maxTasks: 0 })).toThrow(/maxTasks/);
    expect(() => createTaskReceiver({ maxTtl: Number.NaN })).toThrow(/maxTtl/);
  });
});
