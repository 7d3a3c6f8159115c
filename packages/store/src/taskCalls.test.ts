/**
 * Task-backed durable calls through the store: a real 2026-07-28 tasks server over HTTP, real v2
 * clients through the bridge (each tagging its requests with its host, so the server's log tells
 * who polled), two hosts on one database — PGlite and a real PostgreSQL.
 */
import { accept } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../../mcp-bridge/src/__fixtures__/clients';
import type { TasksServer } from '../../mcp-bridge/src/__fixtures__/tasksServer';
import { startTasksServer } from '../../mcp-bridge/src/__fixtures__/tasksServer';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import type { TaskClient } from './__fixtures__/taskClient';
import { openTaskClient } from './__fixtures__/taskClient';
import type { StoreInbox } from './index';

let server: PostgresServer | undefined;
let tasks: TasksServer;
const clients: TaskClient[] = [];
beforeAll(async () => {
  [server, tasks] = await Promise.all([startPostgres(), startTasksServer({ pollInterval: 100 })]);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all([server?.destroy(), tasks?.close()]);
});

/** A bridge to the tasks server whose requests say `host`; `serverId` is its identity. */
const bridgeOf = async (host: string, serverId = 'tasks') => {
  const client = await openTaskClient(tasks.url, host, serverId);
  clients.push(client);
  return client.bridge;
};

interface Logged {
  method: string;
  params?: { taskId?: string; inputResponses?: Record<string, unknown> };
  host?: string;
}

/** The server's log of one task: method, params and the host that sent each request. */
const logOf = (taskId: string): Logged[] =>
  (tasks.log as { method: string; params?: Logged['params']; headers?: Record<string, string> }[])
    .filter((entry) => entry.params?.taskId === taskId)
    .map((entry) => ({
      method: entry.method,
      params: entry.params,
      host: entry.headers?.['x-waitfor-host'],
    }));

const listed = (inbox: StoreInbox) => inbox.getSnapshot().map((request) => request.id);
const keyOf = (request: Request) =>
  (request.data?.origin as { inputKey?: string } | undefined)?.inputKey;

describe.each([
  { driver: 'pglite', open: () => drivers.pglite({ pollMs: 0 }) },
  { driver: 'postgres', open: () => drivers.postgres(server!, { pollMs: 0 }) },
])('task-backed durable calls on $driver', ({ open }) => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  /** The task of a call, as its first question's origin names it. */
  const savedTask = async (callId: string) => {
    const [row] = await fleet!.query(
      `SELECT origin->>'taskId' AS "taskId" FROM waitfor_questions WHERE call_id = $1 ORDER BY seq`,
      [callId],
    );
    return row as { taskId: string };
  };

  it('asks three keys once in every inbox; the one poller sends each answer as it lands, partial; the result is stored once for every reader', async () => {
    fleet = await open();
    const makerBridge = await bridgeOf('maker');
    const maker = fleet.a.durableCalls({ clientFor: () => makerBridge, work: false });
    const bridgeB = await bridgeOf('b');
    const callsB = fleet.b.durableCalls({ clientFor: () => bridgeB, leaseMs: 2_000 });
    const [inboxA, inboxB] = [await fleet.a.inbox('dana'), await fleet.b.inbox('dana')];

    const started = await maker.callTool('dana', 'tasks', { name: 'ask_three' });
    expect(started.status).toBe('waiting');
    const { taskId } = await savedTask(started.callId);
    await expect.poll(() => listed(inboxA).length).toBe(3);
    await expect.poll(() => listed(inboxB).length).toBe(3);
    const byKey = new Map(inboxA.getSnapshot().map((request) => [keyOf(request), request]));
    expect([...byKey.keys()].sort()).toEqual(['a', 'b', 'c']);

    const updates = () => logOf(taskId).filter((entry) => entry.method === 'tasks/update');
    // One answer at a time, on either host: each goes out alone, as soon as it is stored.
    expect(await inboxB.submit(accept(byKey.get('a')!, { a: 'alpha' }))).toBe(true);
    await expect.poll(() => updates().length).toBe(1);
    expect(await inboxA.submit(accept(byKey.get('b')!, { b: 'beta' }))).toBe(true);
    await expect.poll(() => updates().length).toBe(2);
    // The answered keys left every inbox; the last one is still open everywhere.
    await expect.poll(() => listed(inboxA)).toEqual([byKey.get('c')!.id]);
    await expect.poll(() => listed(inboxB)).toEqual([byKey.get('c')!.id]);
    expect(await inboxB.submit(accept(byKey.get('c')!))).toBe(true);

    const result = await maker.result(started.callId);
    expect(textOf(result)).toContain('alpha');
    expect(await callsB.result(started.callId)).toEqual(result);
    expect(updates().map((entry) => Object.keys(entry.params!.inputResponses!))).toEqual([
      ['a'],
      ['b'],
      ['c'],
    ]);
    // Only the poller watched and answered; the maker stopped once the task asked.
    expect(new Set(updates().map((entry) => entry.host))).toEqual(new Set(['b']));
    const [call] = await fleet.query('SELECT state, trace FROM waitfor_calls WHERE call_id = $1', [
      started.callId,
    ]);
    expect(call!.state).toBe('complete');
    const steps = (call!.trace as { outcome: string }[]).map((step) => step.outcome);
    expect(steps.filter((outcome) => outcome === 'claimed')).toHaveLength(1);
    expect(steps.at(-1)).toBe('complete');
    const questions = await fleet.query(
      'SELECT id, state FROM waitfor_questions WHERE call_id = $1 ORDER BY seq',
      [started.callId],
    );
    expect(questions.map((row) => row.state)).toEqual(['answered', 'answered', 'answered']);
  });

  it('two hosts race for the poll lease: exactly one polls the task; its stream of tasks/get is the only one', async () => {
    fleet = await open();
    const makerBridge = await bridgeOf('maker');
    const maker = fleet.a.durableCalls({ clientFor: () => makerBridge, work: false });
    const [bridgeA, bridgeB] = [await bridgeOf('a'), await bridgeOf('b')];
    const inboxA = await fleet.a.inbox('erin');
    const started = await maker.callTool('erin', 'tasks', { name: 'ask_region' });
    // Both hosts start working at once, both told the call is ready.
    const callsA = fleet.a.durableCalls({ clientFor: () => bridgeA, leaseMs: 1_000 });
    const callsB = fleet.b.durableCalls({ clientFor: () => bridgeB, leaseMs: 1_000 });
    await Promise.all([callsA.work(), callsB.work()]);
    const { taskId } = await savedTask(started.callId);
    const gets = () =>
      logOf(taskId).filter((entry) => entry.method === 'tasks/get' && entry.host !== 'maker');
    // Several leases long: the holder renews, nobody else ever claims.
    // Polled every 100 ms: thirty polls span three leases of 1 s, each renewed by its holder.
    await expect.poll(() => gets().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(30);
    const pollers = new Set(gets().map((entry) => entry.host));
    expect(pollers.size).toBe(1);
    await expect.poll(() => listed(inboxA).length).toBe(1);
    expect(await inboxA.submit(accept(inboxA.getSnapshot()[0]!, { region: 'eu' }))).toBe(true);
    expect(textOf(await callsA.result(started.callId))).toBe('region=eu');
    expect(
      new Set(
        logOf(taskId)
          .filter((e) => e.host !== 'maker')
          .map((e) => e.host),
      ),
    ).toEqual(pollers);
    const [call] = await fleet.query('SELECT trace FROM waitfor_calls WHERE call_id = $1', [
      started.callId,
    ]);
    const claims = (call!.trace as { outcome: string; by: string }[]).filter(
      (step) => step.outcome === 'claimed',
    );
    expect(claims.map((step) => step.by)).toEqual([...pollers]);
  });

  it('a task cancelled on the server while its question is open ends the question in every inbox and fails the call with the reason', async () => {
    fleet = await open();
    const [makerBridge, bridgeB] = [await bridgeOf('maker'), await bridgeOf('b')];
    const maker = fleet.a.durableCalls({ clientFor: () => makerBridge, work: false });
    fleet.b.durableCalls({ clientFor: () => bridgeB, leaseMs: 2_000 });
    const [inboxA, inboxB] = [await fleet.a.inbox('fay'), await fleet.b.inbox('fay')];
    const started = await maker.callTool('fay', 'tasks', { name: 'hold' });
    await expect.poll(() => listed(inboxA).length).toBe(1);
    await expect.poll(() => listed(inboxB).length).toBe(1);
    const held = inboxA.getSnapshot()[0]!;
    const { taskId } = await savedTask(started.callId);
    // The poller is watching it.
    await expect.poll(() => logOf(taskId).some((entry) => entry.host === 'b')).toBe(true);
    await tasks.cancelTask(taskId);

    await expect(maker.result(started.callId)).rejects.toMatchObject({
      code: 'call_failed',
      details: { code: 'task_cancelled' },
    });
    await expect.poll(() => listed(inboxA)).toEqual([]);
    await expect.poll(() => listed(inboxB)).toEqual([]);
    const [question] = await fleet.query(
      'SELECT state, outcome FROM waitfor_questions WHERE call_id = $1',
      [started.callId],
    );
    expect(question).toEqual({ state: 'cancelled', outcome: 'task_cancelled' });
    // Nobody can answer it now.
    expect(await inboxB.submit(accept(held, { hold: 'eu' }))).toBe(false);
  });

  it("refuses a reference for another server identity: the call fails 'foreign_reference', nothing is sent, never retried", async () => {
    fleet = await open();
    const makerBridge = await bridgeOf('maker');
    const maker = fleet.a.durableCalls({ clientFor: () => makerBridge, work: false });
    // B reaches "the same" server key through a bridge of another identity.
    const elsewhere = await bridgeOf('b', 'elsewhere');
    fleet.b.durableCalls({ clientFor: () => elsewhere, leaseMs: 2_000, retryMs: 0 });
    const inboxA = await fleet.a.inbox('gus');
    const started = await maker.callTool('gus', 'tasks', { name: 'ask_region' });
    await expect(maker.result(started.callId)).rejects.toMatchObject({
      code: 'call_failed',
      details: { code: 'foreign_reference' },
    });
    const [call] = await fleet.query('SELECT trace FROM waitfor_calls WHERE call_id = $1', [
      started.callId,
    ]);
    expect((call!.trace as { outcome: string }[]).map((step) => step.outcome)).toEqual([
      'suspended',
      'claimed',
      'failed',
    ]);
    const { taskId } = await savedTask(started.callId);
    expect(taskId).toEqual(expect.any(String));
    // The maker's own polls before the task asked are the only requests about it.
    expect(logOf(taskId).filter((entry) => entry.host !== 'maker')).toEqual([]);
    await expect.poll(() => listed(inboxA)).toEqual([]);
    const [question] = await fleet.query(
      'SELECT state, outcome FROM waitfor_questions WHERE call_id = $1',
      [started.callId],
    );
    expect(question).toEqual({ state: 'cancelled', outcome: 'foreign_reference' });
  });
});
