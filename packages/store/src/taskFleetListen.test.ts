/**
 * kill -9 of the host watching a task through its status stream, on a real PostgreSQL: the
 * 2026-07-28 tasks server offers `subscriptions/listen`, so the poller listens instead of polling.
 * Host processes (taskHost.ts) with real v2 clients over HTTP. P1 holds the lease and listens; it
 * dies with a question open; P2 takes the task over and listens in its turn; the question keeps
 * its id across the take-over (another process); P3's inbox answers both keys, P2 sends them; the
 * call completes once.
 */
import { expect, it } from 'vitest';
import { textOf } from '../../mcp-bridge/src/__fixtures__/clients';
import { startTasksServer } from '../../mcp-bridge/src/__fixtures__/tasksServer';
import { useFleet } from './__fixtures__/taskFleet';
import { startHost } from './__fixtures__/hosts';
import { openTaskClient } from './__fixtures__/taskClient';

const taskHost = new URL('./__fixtures__/taskHost.ts', import.meta.url).pathname;

const fleet = useFleet(() => startTasksServer({ listen: true, pollInterval: 100 }));

/** The hosts that opened a status stream of `taskId`, one entry per stream, in order. */
const listeners = (taskId: string) =>
  fleet.tasks.listens
    .filter((entry) => entry.taskIds.includes(taskId))
    .map((entry) => entry.headers['x-waitfor-host'])
    .filter((host) => host !== 'maker');

/** The `tasks/*` requests about `taskId`, but the maker's: method and host. */
const requests = (taskId: string) =>
  fleet.tasks.log
    .filter(
      (entry) => entry.params.taskId === taskId && entry.headers['x-waitfor-host'] !== 'maker',
    )
    .map((entry) => ({ method: entry.method, host: entry.headers['x-waitfor-host'] }));

it('kill -9 of the listening host with a question open: another host takes over and listens, the question keeps its id, the call completes once', async () => {
  const url = await fleet.database('task_fleet_listen');
  const maker = await fleet.maker(url);
  const makerClient = await openTaskClient(fleet.tasks.url, 'maker');
  try {
    const calls = maker.durableCalls({ clientFor: () => makerClient.bridge, work: false });
    const host = (instance: string, work: boolean) =>
      startHost(url, instance, fleet.tasks.url, {
        leaseMs: 1_000,
        pollMs: 500,
        script: taskHost,
        extra: [work ? 'work' : 'answer'],
      });
    const [p1, p3] = await Promise.all([host('p1', true), host('p3', false)]);
    const started = await calls.callTool('fleet', 'tasks', { name: 'ask_twice' });
    expect(started.status).toBe('waiting');
    const [first] = (await p3.send('questions', { count: 1 })).questions as { id: string }[];
    const look = async (text: string) => {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text, [started.callId])).rows;
      } finally {
        await client.end();
      }
    };
    const [{ taskId }] = (await look(
      `SELECT origin->>'taskId' AS "taskId" FROM waitfor_questions WHERE call_id = $1`,
    )) as [{ taskId: string }];

    // P1 holds the lease and listens; nobody polls (the statuses are pushed).
    await expect.poll(() => listeners(taskId)).toContain('p1');
    expect(new Set(listeners(taskId))).toEqual(new Set(['p1']));
    expect(requests(taskId).filter((entry) => entry.method === 'tasks/get')).toEqual([]);
    await p1.kill();

    // P2 takes over once P1's lease ran out, from the saved suspension, and listens in its turn.
    const p2 = await host('p2', true);
    await expect.poll(() => listeners(taskId)).toContain('p2');
    expect(requests(taskId)).toEqual([]);
    // The question every inbox lists is still the one P1's poll asked: same id, one row.
    const [again] = (await p3.send('questions', { count: 1 })).questions as { id: string }[];
    expect(again!.id).toBe(first!.id);
    expect((await p3.send('answer', { id: first!.id, content: { first: 'one' } })).won).toBe(true);
    const [second] = (await p3.send('questions', { count: 1 })).questions as { id: string }[];
    expect(second!.id).not.toBe(first!.id);
    expect((await p3.send('answer', { id: second!.id, content: { second: 'two' } })).won).toBe(
      true,
    );

    const results = await Promise.all([
      calls.result(started.callId).then(textOf),
      p2.send('result', { callId: started.callId }).then((reply) => reply.text),
      p3.send('result', { callId: started.callId }).then((reply) => reply.text),
    ]);
    expect(results).toEqual(Array(3).fill('first=one, second=two'));

    // P1 listened, then only P2: every stream and every request after the kill is P2's.
    const streams = listeners(taskId);
    const after = streams.findIndex((listener) => listener !== 'p1');
    expect(streams.slice(0, after).length).toBeGreaterThan(0);
    expect(new Set(streams.slice(after))).toEqual(new Set(['p2']));
    expect(requests(taskId)).toEqual([
      { method: 'tasks/update', host: 'p2' },
      { method: 'tasks/update', host: 'p2' },
    ]);
    const [call] = (await look(`SELECT state, trace FROM waitfor_calls WHERE call_id = $1`)) as [
      { state: string; trace: { outcome: string; by: string }[] },
    ];
    expect(call.state).toBe('complete');
    expect(
      call.trace
        .filter((step) => ['claimed', 'complete'].includes(step.outcome))
        .map((step) => `${step.outcome} ${step.by}`),
    ).toEqual(['claimed p1', 'claimed p2', 'complete p2']);
    expect(
      await look(`SELECT state FROM waitfor_questions WHERE call_id = $1 ORDER BY seq`),
    ).toEqual([{ state: 'answered' }, { state: 'answered' }]);
    await Promise.all([p2, p3].map((process) => process.send('stop')));
  } finally {
    await makerClient.close();
    await maker.close();
  }
});
