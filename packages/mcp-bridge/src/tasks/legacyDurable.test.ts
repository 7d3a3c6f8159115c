/**
 * Durable 2025-11-25 task-backed calls against the v1 SDK's own experimental tasks server
 * (`legacyTasksServer.ts`) over Streamable HTTP, so two client connections (two sessions) reach one
 * server: the reference is JSON, taken before any question is delivered, and resumed by another
 * client, whose waitFor gets the task's pushed questions; a forged or foreign reference is refused
 * before anything is sent; a server that binds tasks to their session refuses another's (typed).
 */
import { accept, type Answer, type Request, type WaitFor } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldPerson, openClient, textOf, type ClientKind } from '../__fixtures__/clients';
import { rejection } from '../__fixtures__/hostileHelpers';
import { startLegacyTasksServer, type LegacyTasksServer } from '../__fixtures__/legacyTasksServer';
import { startTasksServer, type TasksServer } from '../__fixtures__/tasksServer';
import type { Bridge } from '../attachWaitFor';
import { parseSuspension } from '../eras';
import type { TaskSuspension } from '../types';

let shared: LegacyTasksServer;
let sessionBound: LegacyTasksServer;
beforeAll(async () => {
  [shared, sessionBound] = await Promise.all([
    startLegacyTasksServer({ shared: true }),
    startLegacyTasksServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([shared.close(), sessionBound.close()]);
});

/** A person who answers each form by its only field. */
function answering() {
  const seen: Request[] = [];
  const waitFor = async (request: Request): Promise<Answer> => {
    seen.push(request);
    const schema = request.data?.schema as { properties?: Record<string, unknown> } | undefined;
    const key = Object.keys(schema?.properties ?? {})[0] ?? 'x';
    return accept(request, { [key]: `${key}-value` });
  };
  return { seen, waitFor };
}

/** Resolves once `predicate` holds (checked every few ms: the server and the bridge move on). */
function until(predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (predicate() ? resolve() : setTimeout(check, 5));
    check();
  });
}

const logOf = (server: LegacyTasksServer, taskId: string, method?: string) =>
  server.log.filter(
    (entry) =>
      entry.params['taskId'] === taskId && (method === undefined || entry.method === method),
  );

describe.each<ClientKind>(['v1', 'v2-legacy'])('durable 2025-11-25 tasks, %s client', (kind) => {
  const open = async (server: LegacyTasksServer, waitFor: WaitFor, serverId?: string) => {
    const client = await openClient(
      kind,
      'http',
      { url: server.url },
      { waitFor, ...(serverId && { serverId }) },
    );
    return { ...client, b: client.bridge as unknown as Bridge };
  };

  /** A durable call's reference, as a store would keep it (JSON). */
  async function suspend(b: Bridge, name: string): Promise<TaskSuspension> {
    const outcome = await b.callTool({ name }, { durable: true });
    if (outcome.status !== 'suspended')
      throw new Error(`not suspended: ${JSON.stringify(outcome)}`);
    return JSON.parse(JSON.stringify(outcome.suspension)) as TaskSuspension;
  }

  it('suspends once the task asks, before any question is taken; another client resumes it', async () => {
    const first = answering();
    const second = answering();
    const a = await open(shared, first.waitFor);
    const reference = await suspend(a.b, 'ask_region');
    await a.close();
    expect(reference).toEqual({
      version: 1,
      kind: 'task',
      revision: '2025-11-25',
      method: 'tools/call',
      params: { name: 'ask_region' },
      server: 'legacy-tasks-fixture@1.0.0',
      taskId: expect.stringMatching(/^[0-9a-f]{32}$/),
      answered: [],
      inputRequests: {},
      requests: [],
      round: 1,
      pollInterval: 50,
    });
    expect(parseSuspension(reference)).toEqual(reference);
    // A watched with tasks/get alone: nothing was asked in A, no tasks/result took a question.
    expect(logOf(shared, reference.taskId, 'tasks/result')).toHaveLength(0);
    expect(first.seen).toHaveLength(0);

    const b = await open(shared, second.waitFor);
    try {
      const done = await b.b.resume(reference, []);
      expect(done.status).toBe('complete');
      expect(textOf((done as { result: unknown }).result)).toBe('region=region-value');
      expect(second.seen).toHaveLength(1);
      expect(second.seen[0]!.data!.origin).toMatchObject({
        server: 'legacy-tasks-fixture',
        tool: 'ask_region',
        taskId: reference.taskId,
      });
      const [call] = shared.log.filter(
        (entry) => entry.method === 'tools/call' && entry.params['name'] === 'ask_region',
      );
      const reads = logOf(shared, reference.taskId, 'tasks/result');
      expect(reads).toHaveLength(1);
      expect(reads[0]!.session).not.toBe(call?.session);
      expect(shared.answers.filter((entry) => entry.taskId === reference.taskId)).toHaveLength(1);
    } finally {
      await b.close();
    }
  });

  it('a question open in A when A closes is asked again in B and answered once', async () => {
    const held = heldPerson();
    const a = await open(shared, held.waitFor);
    const reference = await suspend(a.b, 'ask_region');
    const inA = a.b.resume(reference, []).catch((error: unknown) => error);
    await until(() => held.open.length === 1);
    expect(held.open[0]!.request.data!.origin!.taskId).toBe(reference.taskId);
    await a.close();
    await inA;
    // The person in A is told: the question's signal ended with the connection.
    await until(() => held.open[0]!.signal?.aborted === true);

    const second = answering();
    const b = await open(shared, second.waitFor);
    try {
      const done = await b.b.resume(reference, []);
      expect(textOf((done as { result: unknown }).result)).toBe('region=region-value');
      expect(second.seen).toHaveLength(1);
      expect(shared.answers.filter((entry) => entry.taskId === reference.taskId)).toEqual([
        {
          taskId: reference.taskId,
          key: 'region',
          result: { action: 'accept', content: { region: 'region-value' } },
        },
      ]);
    } finally {
      await b.close();
    }
  });

  it('a task that completed meanwhile returns its result, asking nobody', async () => {
    const a = await open(shared, answering().waitFor);
    const reference = await suspend(a.b, 'ask_region');
    await a.close();
    const answerer = await open(shared, answering().waitFor);
    const late = answering();
    const reader = await open(shared, late.waitFor);
    try {
      await answerer.b.resume(reference, []);
      const done = await reader.b.resume(reference, []);
      expect(done).toMatchObject({ status: 'complete' });
      expect(textOf((done as { result: unknown }).result)).toBe('region=region-value');
      expect(late.seen).toHaveLength(0);
      expect(shared.answers.filter((entry) => entry.taskId === reference.taskId)).toHaveLength(1);
    } finally {
      await Promise.all([answerer.close(), reader.close()]);
    }
  });

  it('ask_twice: both questions reach the resuming client in turn', async () => {
    const a = await open(shared, answering().waitFor);
    const reference = await suspend(a.b, 'ask_twice');
    await a.close();
    const second = answering();
    const b = await open(shared, second.waitFor);
    try {
      const done = await b.b.resume(reference, []);
      expect(textOf((done as { result: unknown }).result)).toBe(
        'first=first-value second=second-value',
      );
      expect(second.seen.map((request) => request.data!.origin!.taskId)).toEqual([
        reference.taskId,
        reference.taskId,
      ]);
    } finally {
      await b.close();
    }
  });

  it('refuses a foreign or forged reference, and answers to it, before anything is sent', async () => {
    const client = await open(shared, answering().waitFor);
    const other = await open(shared, answering().waitFor, 'another-server');
    try {
      const reference = await suspend(client.b, 'hold');
      const before = logOf(shared, reference.taskId).length;
      expect((await rejection(other.b.resume(reference, []))).code).toBe('foreign_reference');
      const request = {
        id: 'elc-1',
        kind: 'input',
        prompt: 'Your held?',
        data: { origin: { server: 's', taskId: reference.taskId, inputKey: 'held' } },
      };
      const forged: unknown[] = [
        { ...reference, revision: '2024-11-05' },
        // Without its revision it reads as a 2026-07-28 reference: one with no question is none.
        { ...reference, revision: undefined },
        { ...reference, answered: ['held'] },
        { ...reference, requests: [request] },
        {
          ...reference,
          inputRequests: {
            held: { method: 'elicitation/create', params: { message: 'x', requestedSchema: {} } },
          },
        },
        { ...reference, taskId: 'x'.repeat(1024 * 1024) },
        { ...reference, round: 0 },
      ];
      for (const value of forged)
        expect((await rejection(client.b.resume(value as TaskSuspension, []))).code).toBe(
          'invalid_suspension',
        );
      // The reference holds no Request: any Answer matches none.
      expect((await rejection(client.b.resume(reference, [{ id: 'elc-1', ok: true }]))).code).toBe(
        'answer_mismatch',
      );
      expect(logOf(shared, reference.taskId)).toHaveLength(before);
      await client.b.tasks.cancel(reference.taskId);
    } finally {
      await Promise.all([client.close(), other.close()]);
    }
  });

  it('durable: a task that ends before it asks is the outcome; a plain tool is refused unsent', async () => {
    const client = await open(shared, answering().waitFor);
    try {
      const slow = await client.b.callTool(
        { name: 'slow', arguments: { ms: 20 } },
        { durable: true },
      );
      expect(slow.status).toBe('complete');
      expect(textOf((slow as { result: unknown }).result)).toBe('slow done');
      expect((await rejection(client.b.callTool({ name: 'fail' }, { durable: true }))).code).toBe(
        'task_failed',
      );
      const calls = shared.log.filter((entry) => entry.method === 'tools/call').length;
      const plain = await rejection(client.b.callTool({ name: 'ask_later' }, { durable: true }));
      expect(plain.code).toBe('durable_unsupported');
      expect(shared.log.filter((entry) => entry.method === 'tools/call')).toHaveLength(calls);
    } finally {
      await client.close();
    }
  });

  it("a server binding tasks to their session refuses another's: a typed error, not a hang", async () => {
    const a = await open(sessionBound, answering().waitFor);
    const reference = await suspend(a.b, 'hold');
    const b = await open(sessionBound, answering().waitFor);
    try {
      const refused = await rejection(b.b.resume(reference, []));
      expect(refused.code).toBe('server_error');
      expect(refused.rpc?.code).toBe(-32602);
    } finally {
      await a.b.tasks.cancel(reference.taskId);
      await Promise.all([a.close(), b.close()]);
    }
  });
});

it('the connect facade (2025 handshake) suspends and resumes the same way', async () => {
  const a = await openClient(
    'v2-legacy',
    'http',
    { url: shared.url },
    { waitFor: answering().waitFor },
    'connect',
  );
  const outcome = await (a.bridge as unknown as Bridge).callTool(
    { name: 'ask_region' },
    { durable: true },
  );
  await a.close();
  if (outcome.status !== 'suspended') throw new Error('not suspended');
  const reference = outcome.suspension as TaskSuspension;
  const person = answering();
  const b = await openClient('v2-legacy', 'http', { url: shared.url }, person, 'connect');
  try {
    const done = await (b.bridge as unknown as Bridge).resume(reference, []);
    expect(textOf((done as { result: unknown }).result)).toBe('region=region-value');
    expect(person.seen).toHaveLength(1);
  } finally {
    await b.close();
  }
});

describe('a reference is resumed only by the revision it is for', () => {
  let modern: TasksServer;
  beforeAll(async () => {
    // The same server identity as the 2025-11-25 fixture, speaking 2026-07-28 tasks.
    modern = await startTasksServer({ name: 'legacy-tasks-fixture', pollInterval: 50 });
  });
  afterAll(async () => {
    await modern.close();
  });

  it('a 2025-11-25 reference on a 2026-07-28 connection (and back) is foreign_reference', async () => {
    const legacy = await openClient(
      'v1',
      'http',
      { url: shared.url },
      { waitFor: answering().waitFor },
    );
    const current = await openClient(
      'v2-modern',
      'http',
      { url: modern.url },
      { waitFor: answering().waitFor },
    );
    const [old, now] = [legacy.bridge as unknown as Bridge, current.bridge as unknown as Bridge];
    try {
      const pushed = await old.callTool({ name: 'hold' }, { durable: true });
      const polled = await now.callTool({ name: 'ask_region' }, { durable: true });
      if (pushed.status !== 'suspended' || polled.status !== 'suspended')
        throw new Error('not suspended');
      const before = [shared.log.length, modern.log.length];
      expect((await rejection(now.resume(pushed.suspension, []))).code).toBe('foreign_reference');
      expect((await rejection(old.resume(polled.suspension, []))).code).toBe('foreign_reference');
      expect([shared.log.length, modern.log.length]).toEqual(before);
      const pushedTask = (pushed.suspension as TaskSuspension).taskId;
      await old.tasks.cancel(pushedTask);
      await now.tasks.cancel((polled.suspension as TaskSuspension).taskId);
    } finally {
      await Promise.all([legacy.close(), current.close()]);
    }
  });
});
