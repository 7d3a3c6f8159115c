/**
 * Durable 2025-11-25 task-backed calls through the store: the v1 SDK's own experimental tasks
 * server in shared mode (tasks outlive their session) over HTTP, real v1 clients through the
 * bridge, two hosts on one database — PGlite and a real PostgreSQL. Each host's client for the
 * scope is attached with that scope's store inbox as its waitFor (`clientFor(serverKey, scope)`),
 * so a question the server pushes on the poller's tasks/result is a question row every inbox
 * lists, and an answer from the other host goes back on the poller's open tasks/result.
 */
import { accept } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openClient, textOf, type OpenClient } from '../../mcp-bridge/src/__fixtures__/clients';
import {
  startLegacyTasksServer,
  type LegacyTasksServer,
} from '../../mcp-bridge/src/__fixtures__/legacyTasksServer';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import type { DurableCaller } from './calls/durableCalls';
import type { Store } from './index';

let server: PostgresServer | undefined;
let tasks: LegacyTasksServer;
const clients: OpenClient[] = [];
beforeAll(async () => {
  [server, tasks] = await Promise.all([
    startPostgres(),
    startLegacyTasksServer({ shared: true, pollInterval: 50 }),
  ]);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await Promise.all([server?.destroy(), tasks?.close()]);
});

/** A v1 client of the tasks server whose pushed questions go to `store`'s inbox of `scope`. */
async function clientOf(store: Store, scope: string): Promise<OpenClient> {
  const inbox = await store.inbox(scope);
  const client = await openClient('v1', 'http', { url: tasks.url }, { waitFor: inbox.waitFor });
  clients.push(client);
  return client;
}

/** The HTTP session a client's requests carry, as the server's log records it. */
const sessionOf = (client: OpenClient): string | undefined =>
  (client.client as { transport?: { sessionId?: string } }).transport?.sessionId;

const logOf = (taskId: string, method: string) =>
  tasks.log.filter((entry) => entry.method === method && entry.params['taskId'] === taskId);

describe.each([
  { driver: 'pglite', open: () => drivers.pglite({ pollMs: 0 }) },
  { driver: 'postgres', open: () => drivers.postgres(server!, { pollMs: 0 }) },
])('durable 2025-11-25 task calls on $driver', ({ open }) => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  it("asks the task's pushed question in every inbox; the other host's answer reaches the server through the poller's one tasks/result, never interrupted; the result is stored once", async () => {
    fleet = await open();
    const stores = { a: fleet.a, b: fleet.b };
    const clientsOf = { a: await clientOf(fleet.a, 'erin'), b: await clientOf(fleet.b, 'erin') };
    const scopes: string[] = [];
    // Both hosts work: exactly one of them claims the task and polls it.
    const callsOf = {
      a: fleet.a.durableCalls({
        clientFor: (_key, scope) => {
          scopes.push(scope);
          return clientsOf.a.bridge as unknown as DurableCaller;
        },
        leaseMs: 2_000,
      }),
      b: fleet.b.durableCalls({
        clientFor: (_key, scope) => {
          scopes.push(scope);
          return clientsOf.b.bridge as unknown as DurableCaller;
        },
        leaseMs: 2_000,
      }),
    };
    const inboxes = { a: await fleet.a.inbox('erin'), b: await fleet.b.inbox('erin') };

    const started = await callsOf.a.callTool('erin', 'legacy', { name: 'ask_region' });
    expect(started.status).toBe('waiting');
    await expect.poll(() => inboxes.a.getSnapshot().length).toBe(1);
    await expect.poll(() => inboxes.b.getSnapshot().length).toBe(1);
    const [question] = inboxes.a.getSnapshot();
    expect(inboxes.b.getSnapshot()[0]!.id).toBe(question!.id);
    const taskId = String(question!.data!.origin!.taskId);
    expect(question!.data!.origin).toMatchObject({ server: 'legacy-tasks-fixture', taskId });

    const [row] = await fleet.query('SELECT trace FROM waitfor_calls WHERE call_id = $1', [
      started.callId,
    ]);
    const claims = (row!.trace as { outcome: string; by: string }[]).filter(
      (step) => step.outcome === 'claimed',
    );
    expect(claims).toHaveLength(1);
    const poller = claims[0]!.by as 'a' | 'b';
    const other = poller === 'a' ? 'b' : 'a';
    // The fallback poll of every host runs while the question is open: it must not close the
    // poller's tasks/result (the question would end, the server might not ask again).
    await Promise.all([stores.a.sweep(), stores.b.sweep()]);
    await Promise.all([stores.a.sweep(), stores.b.sweep()]);

    // The host that does not poll answers; the server hears it through the poller's stream.
    expect(await inboxes[other].submit(accept(question!, { region: 'north' }))).toBe(true);
    const result = await callsOf[other].result(started.callId);
    expect(textOf(result)).toBe('region=north');
    expect(await callsOf[poller].result(started.callId)).toEqual(result);

    const reads = logOf(taskId, 'tasks/result');
    expect(reads.map((entry) => entry.session)).toEqual([sessionOf(clientsOf[poller])]);
    expect(tasks.answers.filter((entry) => entry.taskId === taskId)).toEqual([
      { taskId, key: 'region', result: { action: 'accept', content: { region: 'north' } } },
    ]);
    expect(new Set(scopes)).toEqual(new Set(['erin']));
    const [call] = await fleet.query('SELECT state, trace FROM waitfor_calls WHERE call_id = $1', [
      started.callId,
    ]);
    expect(call!.state).toBe('complete');
    const steps = (call!.trace as { outcome: string; by: string }[]).map(
      (step) => `${step.outcome} ${step.by}`,
    );
    expect(steps.filter((step) => /^(claimed|complete) /.test(step))).toEqual([
      `claimed ${poller}`,
      `complete ${poller}`,
    ]);
    const questions = await fleet.query(
      `SELECT state FROM waitfor_questions WHERE scope = 'erin' ORDER BY seq`,
    );
    expect(questions.map((entry) => entry.state)).toEqual(['answered']);
  });
});
