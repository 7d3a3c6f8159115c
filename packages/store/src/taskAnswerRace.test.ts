/**
 * An answer stored just as the task's server withdraws its key, on PGlite and a real PostgreSQL,
 * against the real 2026-07-28 tasks server over HTTP. The window is hit deterministically: the
 * poller's bridge is the real one, and the answer is stored after its `resume` returned the
 * task's new state (the key gone) and before the store saves that state. The person's `submit`
 * must say the answer did not go through, and the row must say why.
 */
import { accept } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import type { DurableOutcome, TaskSuspension } from '@waitfor/mcp-bridge';
import { afterEach, describe, expect, it } from 'vitest';
import { textOf } from '../../mcp-bridge/src/__fixtures__/clients';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import { useTaskServers } from './__fixtures__/taskClient';
import type { DurableCaller } from './calls/durableCalls';

const servers = useTaskServers();
const { bridgeOf } = servers;

/**
 * The real bridge of a poller, with one step the test can place: `between` runs once, after a
 * `resume` returned and before the store sees what it returned.
 */
function placed(bridge: DurableCaller) {
  const hold: { between?: (outcome: DurableOutcome) => Promise<void> } = {};
  const caller: DurableCaller = {
    // The bridge's methods need no `this`.
    callTool: bridge.callTool,
    resume: async (suspension, answers, options) => {
      const outcome = await bridge.resume(suspension, answers, options);
      const between = hold.between;
      hold.between = undefined;
      await between?.(outcome);
      return outcome;
    },
  };
  return { caller, hold };
}

const keyOf = (request: Request) =>
  (request.data?.origin as { inputKey?: string } | undefined)?.inputKey;

const updatesOf = (taskId: string) =>
  servers.tasks.log.filter(
    (entry) => entry.method === 'tasks/update' && entry.params.taskId === taskId,
  );

describe.each([
  { driver: 'pglite', open: () => drivers.pglite({ pollMs: 0 }) },
  { driver: 'postgres', open: () => drivers.postgres(servers.postgres, { pollMs: 0 }) },
])('an answer racing its key away on $driver', ({ open }) => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  /** A maker (never polls) on host A, a poller with a placed bridge on host B, inboxes on both. */
  const start = async (scope: string, tool: string) => {
    fleet = await open();
    const makerBridge = await bridgeOf('maker');
    const maker = fleet.a.durableCalls({ clientFor: () => makerBridge, work: false });
    const poller = placed(await bridgeOf('b'));
    fleet.b.durableCalls({ clientFor: () => poller.caller, leaseMs: 5_000 });
    const [inboxA, inboxB] = [await fleet.a.inbox(scope), await fleet.b.inbox(scope)];
    const started = await maker.callTool(scope, 'tasks', { name: tool });
    expect(started.status).toBe('waiting');
    await expect.poll(() => inboxA.getSnapshot().length).toBe(1);
    const request = inboxA.getSnapshot()[0]!;
    const taskId = String((request.data?.origin as { taskId?: string }).taskId);
    // The poller is watching the task.
    await expect
      .poll(() =>
        servers.tasks.log.some(
          (e) => e.params.taskId === taskId && e.headers['x-waitfor-host'] === 'b',
        ),
      )
      .toBe(true);
    const row = (state: string) =>
      fleet!
        .query(
          `SELECT state, outcome, answered_by, delivered_at FROM waitfor_questions WHERE id = $1`,
          [request.id],
        )
        .then(([found]) => found?.state === state);
    return { maker, inboxA, inboxB, started, request, taskId, hold: poller.hold, row };
  };

  it('the task completes as the answer is stored: submit is false, the row closed "completed", nothing sent', async () => {
    const { maker, inboxA, inboxB, started, request, taskId, hold, row } = await start(
      'rae',
      'hold',
    );
    let won: Promise<boolean> | undefined;
    hold.between = async (outcome) => {
      expect(outcome.status).toBe('complete');
      // Stored after the poller read the task's end, before it saved it.
      won = inboxB.submit(accept(request, { hold: 'eu' }));
      await expect.poll(() => row('answered')).toBe(true);
    };
    servers.tasks.finishTask(taskId, { content: [{ type: 'text', text: 'done early' }] });

    expect(textOf(await maker.result(started.callId))).toBe('done early');
    await expect.poll(() => won !== undefined).toBe(true);
    expect(await won).toBe(false);
    const [question] = await fleet!.query(
      `SELECT state, outcome, answered_by, delivered_at, answer FROM waitfor_questions WHERE id = $1`,
      [request.id],
    );
    // Kept for the audit (without its data), never marked sent.
    expect(question).toMatchObject({ state: 'closed', outcome: 'completed', delivered_at: null });
    expect(question!.answer).toEqual({ id: request.id, ok: true });
    expect(updatesOf(taskId)).toEqual([]);
    await expect.poll(() => inboxA.getSnapshot()).toEqual([]);
  });

  it('the key is answered elsewhere as the answer is stored: submit is false, the row closed "withdrawn"; the next key is asked and answered', async () => {
    const { maker, inboxA, inboxB, started, request, taskId, hold, row } = await start(
      'sol',
      'ask_twice',
    );
    expect(keyOf(request)).toBe('first');
    // Another client of the same server answers `first` on its own (a tasks/update of its own).
    const elsewhere = await bridgeOf('elsewhere');
    const [call] = await fleet!.query(`SELECT suspension FROM waitfor_calls WHERE call_id = $1`, [
      started.callId,
    ]);
    let won: Promise<boolean> | undefined;
    hold.between = async (outcome) => {
      expect(outcome.status).toBe('suspended');
      const next = (outcome as { suspension: TaskSuspension }).suspension;
      expect(Object.keys(next.inputRequests)).toEqual(['second']);
      won = inboxA.submit(accept(request, { first: 'mine' }));
      await expect.poll(() => row('answered')).toBe(true);
    };
    await elsewhere.resume(call!.suspension as TaskSuspension, [
      accept(request, { first: 'elsewhere' }),
    ]);

    await expect.poll(() => won !== undefined).toBe(true);
    expect(await won).toBe(false);
    const [question] = await fleet!.query(
      `SELECT state, outcome, delivered_at FROM waitfor_questions WHERE id = $1`,
      [request.id],
    );
    expect(question).toEqual({ state: 'closed', outcome: 'withdrawn', delivered_at: null });
    // The poller never sent it: the only update about `first` is the other client's.
    expect(updatesOf(taskId).map((entry) => entry.headers['x-waitfor-host'])).toEqual([
      'elsewhere',
    ]);

    await expect.poll(() => inboxB.getSnapshot().map(keyOf)).toEqual(['second']);
    expect(await inboxB.submit(accept(inboxB.getSnapshot()[0]!, { second: 'two' }))).toBe(true);
    expect(textOf(await maker.result(started.callId))).toBe('first=elsewhere, second=two');
  });
});
