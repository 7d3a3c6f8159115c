/**
 * kill -9 of the host polling a task, on a real PostgreSQL: host processes (taskHost.ts) with real
 * v2 clients of a real 2026-07-28 tasks server over HTTP. P1 polls and dies with a question open;
 * an answer lands while no poller lives; P2 takes the task over, sends that answer, asks the next
 * key; P3's inbox answers; the call completes once and every reader gets the one result.
 */
import { expect, it } from 'vitest';
import { textOf } from '../../mcp-bridge/src/__fixtures__/clients';
import { startTasksServer } from '../../mcp-bridge/src/__fixtures__/tasksServer';
import { useFleet } from './__fixtures__/taskFleet';
import { startHost } from './__fixtures__/hosts';
import { openTaskClient } from './__fixtures__/taskClient';

const taskHost = new URL('./__fixtures__/taskHost.ts', import.meta.url).pathname;

const fleet = useFleet(() => startTasksServer({ pollInterval: 100 }));

interface Logged {
  method: string;
  params?: { taskId?: string; inputResponses?: Record<string, unknown> };
  headers?: Record<string, string>;
}

/** Who sent each request about `taskId`, in order, with its method. */
const stream = (taskId: string) =>
  (fleet.tasks.log as Logged[])
    .filter((entry) => entry.params?.taskId === taskId)
    .map((entry) => ({
      method: entry.method,
      host: entry.headers?.['x-waitfor-host'],
      params: entry.params,
    }));

it('kill -9 of the polling host with a question open: another host takes over, a third answers, the call completes once for every reader', async () => {
  const url = await fleet.database('task_fleet');
  const leaseMs = 1_000;
  const maker = await fleet.maker(url);
  const makerClient = await openTaskClient(fleet.tasks.url, 'maker');
  try {
    const calls = maker.durableCalls({ clientFor: () => makerClient.bridge, work: false });
    const host = (instance: string, work: boolean) =>
      startHost(url, instance, fleet.tasks.url, {
        leaseMs,
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
    // P1 holds the lease and polls.
    await expect
      .poll(() => stream(taskId).filter((e) => e.host === 'p1').length)
      .toBeGreaterThan(2);
    await p1.kill();
    const diedAt = stream(taskId).length;

    // The answer lands while no poller lives: stored, not sent — and its submit waits for the send.
    const won = p3.send('answer', { id: first!.id, content: { first: 'one' } });
    await expect
      .poll(() => look(`SELECT state, delivered_at FROM waitfor_questions WHERE call_id = $1`))
      .toEqual([{ state: 'answered', delivered_at: null }]);
    expect(
      stream(taskId)
        .slice(diedAt)
        .filter((e) => e.method === 'tasks/update'),
    ).toEqual([]);

    // P2 takes the task over once P1's lease ran out, sends the stored answer, asks the next key.
    const p2 = await host('p2', true);
    // P2 sent it: only now does the answerer hear it went through.
    expect((await won).won).toBe(true);
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
    expect(new Set(results).size).toBe(1);
    expect(results[0]).toContain('one');
    expect(results[0]).toContain('two');

    // The record: P1's claim, P2's claim, one completion by P2.
    const [call] = (await look(`SELECT state, trace FROM waitfor_calls WHERE call_id = $1`)) as [
      { state: string; trace: { outcome: string; by: string }[] },
    ];
    expect(call.state).toBe('complete');
    const claims = call.trace.filter((step) => ['claimed', 'complete'].includes(step.outcome));
    expect(claims.map((step) => `${step.outcome} ${step.by}`)).toEqual([
      'claimed p1',
      'claimed p2',
      'complete p2',
    ]);
    // Each key asked once, both answered; after P1 died only P2 spoke to the server, and it sent
    // each answer in one tasks/update.
    expect(
      await look(`SELECT state FROM waitfor_questions WHERE call_id = $1 ORDER BY seq`),
    ).toEqual([{ state: 'answered' }, { state: 'answered' }]);
    const after = stream(taskId).slice(diedAt);
    expect(new Set(after.map((entry) => entry.host))).toEqual(new Set(['p2']));
    expect(after.filter((e) => e.method === 'tasks/update').length).toBe(2);
    await Promise.all([p2, p3].map((process) => process.send('stop')));
  } finally {
    await makerClient.close();
    await maker.close();
  }
});
