/**
 * kill -9 of the host re-attached to a 2025-11-25 task with its question open, on a real
 * PostgreSQL: host processes (taskHost.ts, `legacy`) with real v1 clients of the v1 SDK's own
 * tasks server in shared mode over HTTP, each attached with its store inbox as waitFor. P1 polls
 * (its tasks/result carries the pushed question, listed by every inbox) and dies; P2 takes the task
 * over, re-attaches, and the server asks again on P2's tasks/result; P3's inbox answers both keys;
 * the call completes once, each answer reached the server once, every reader gets the one result.
 */
import { expect, it } from 'vitest';
import { openClient, textOf } from '../../mcp-bridge/src/__fixtures__/clients';
import { startLegacyTasksServer } from '../../mcp-bridge/src/__fixtures__/legacyTasksServer';
import type { DurableCaller } from './calls/durableCalls';
import { useFleet } from './__fixtures__/taskFleet';
import { startHost } from './__fixtures__/hosts';

const taskHost = new URL('./__fixtures__/taskHost.ts', import.meta.url).pathname;

const fleet = useFleet(() => startLegacyTasksServer({ shared: true, pollInterval: 100 }));

const reads = (taskId: string) =>
  fleet.tasks.log
    .filter((entry) => entry.method === 'tasks/result' && entry.params['taskId'] === taskId)
    .map((entry) => entry.session);

it('kill -9 of the re-attached host with a question open: another host re-attaches, the server asks again there, a third answers, the call completes once', async () => {
  const url = await fleet.database('legacy_task_fleet');
  const leaseMs = 1_000;
  const maker = await fleet.maker(url);
  const inbox = await maker.inbox('fleet');
  const makerClient = await openClient(
    'v1',
    'http',
    { url: fleet.tasks.url },
    { waitFor: inbox.waitFor },
  );
  const { default: pg } = await import('pg');
  const direct = new pg.Pool({ connectionString: url, max: 1 });
  direct.on('error', () => {});
  const look = async (text: string, params: unknown[]) => (await direct.query(text, params)).rows;
  try {
    const calls = maker.durableCalls({
      clientFor: () => makerClient.bridge as unknown as DurableCaller,
      work: false,
    });
    const host = (instance: string, work: boolean) =>
      startHost(url, instance, fleet.tasks.url, {
        leaseMs,
        pollMs: 500,
        script: taskHost,
        extra: [work ? 'work' : 'answer', 'legacy'],
      });
    const [p1, p3] = await Promise.all([host('p1', true), host('p3', false)]);
    const started = await calls.callTool('fleet', 'legacy', { name: 'ask_twice' });
    expect(started.status).toBe('waiting');

    // P1 claimed the task and re-attached: the server pushed `first` on P1's tasks/result.
    const [first] = (await p3.send('questions', { count: 1 })).questions as { id: string }[];
    const [{ taskId }] = (await look(
      `SELECT origin->>'taskId' AS "taskId" FROM waitfor_questions WHERE id = $1`,
      [first!.id],
    )) as [{ taskId: string }];
    const p1Session = (await p1.send('session')).session as string;
    expect(reads(taskId)).toEqual([p1Session]);
    await p1.kill();

    // P2 takes the task over once P1's claim ran out and re-attaches; the server asks `first`
    // again on P2's stream: a new question, while P1's is closed for everyone (its asker is gone).
    const p2 = await host('p2', true);
    const [again] = (await p3.send('questions', { count: 1, except: [first!.id] })).questions as {
      id: string;
      prompt: string;
    }[];
    expect(again!.id).not.toBe(first!.id);
    expect(again!.prompt).toBe('Your first?');
    expect((await p3.send('answer', { id: again!.id, content: { first: 'one' } })).won).toBe(true);
    const [second] = (await p3.send('questions', { count: 1, except: [first!.id, again!.id] }))
      .questions as { id: string; prompt: string }[];
    expect(second!.prompt).toBe('Your second?');
    expect((await p3.send('answer', { id: second!.id, content: { second: 'two' } })).won).toBe(
      true,
    );

    const results = await Promise.all([
      calls.result(started.callId).then(textOf),
      p2.send('result', { callId: started.callId }).then((reply) => reply.text),
      p3.send('result', { callId: started.callId }).then((reply) => reply.text),
    ]);
    expect(results).toEqual([
      'first=one second=two',
      'first=one second=two',
      'first=one second=two',
    ]);

    // One re-attach per claim: P1's tasks/result, then P2's (never interrupted while it asked).
    const p2Session = (await p2.send('session')).session as string;
    expect(reads(taskId)).toEqual([p1Session, p2Session]);
    // Each key reached the server once: P1 died before anyone answered on its stream.
    expect(fleet.tasks.answers.filter((entry) => entry.taskId === taskId)).toEqual([
      { taskId, key: 'first', result: { action: 'accept', content: { first: 'one' } } },
      { taskId, key: 'second', result: { action: 'accept', content: { second: 'two' } } },
    ]);
    const [call] = (await look(`SELECT state, trace FROM waitfor_calls WHERE call_id = $1`, [
      started.callId,
    ])) as [{ state: string; trace: { outcome: string; by: string }[] }];
    expect(call.state).toBe('complete');
    expect(
      call.trace
        .filter((step) => ['claimed', 'complete'].includes(step.outcome))
        .map((step) => `${step.outcome} ${step.by}`),
    ).toEqual(['claimed p1', 'claimed p2', 'complete p2']);
    // P1's question ended for everyone once P1's lease ran out; the two P2 asked were answered.
    await expect
      .poll(
        async () =>
          (await look(`SELECT state FROM waitfor_questions WHERE id = $1`, [first!.id]))[0]?.state,
        { timeout: 30_000 },
      )
      .not.toBe('open');
    const ended = await look(
      `SELECT id, state, asked_by FROM waitfor_questions WHERE scope = 'fleet' ORDER BY seq`,
      [],
    );
    expect(ended).toEqual([
      { id: first!.id, state: 'closed', asked_by: 'p1' },
      { id: again!.id, state: 'answered', asked_by: 'p2' },
      { id: second!.id, state: 'answered', asked_by: 'p2' },
    ]);
    await Promise.all([p2, p3].map((process) => process.send('stop')));
  } finally {
    await direct.end();
    await makerClient.close();
    await maker.close();
  }
});
