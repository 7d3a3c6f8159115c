/**
 * A task's answer when no host polls the task, on PGlite and a real PostgreSQL, against the real
 * 2026-07-28 tasks server over HTTP: `submit` waits for a poller at most the store's
 * `taskAnswerWaitMs` (a clock the test moves: `now`, with fake timers), then gives the answer back
 * (false, the question asked again) unless a poller took it (true, and it is sent). The race of the
 * bound with a poller's send is placed: the poller's bridge is held after it took the answer and
 * before its `tasks/update`.
 */
import { accept } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import { useTaskServers } from './__fixtures__/taskClient';
import type { DurableCaller } from './calls/durableCalls';
import type { StoreOptions } from './index';

const servers = useTaskServers();
const { bridgeOf } = servers;

/** The real bridge of a poller, held before any `resume` that sends answers until released. */
function held(bridge: DurableCaller) {
  const state: { sending?: readonly Answer[]; release: () => void } = { release: () => {} };
  const released = new Promise<void>((resolve) => (state.release = resolve));
  const caller: DurableCaller = {
    // The bridge's methods need no `this`.
    callTool: bridge.callTool,
    resume: async (suspension, answers, options) => {
      if (answers.length > 0) {
        state.sending = answers;
        await released;
      }
      return bridge.resume(suspension, answers, options);
    },
  };
  return { caller, state };
}

/** The `tasks/update` requests the server got for `taskId`, as their `inputResponses`. */
const updatesOf = (taskId: string) =>
  servers.tasks.log
    .filter((entry) => entry.method === 'tasks/update' && entry.params.taskId === taskId)
    .map((entry) => entry.params.inputResponses);

describe.each([
  {
    driver: 'pglite',
    open: (a: StoreOptions, b: StoreOptions) => drivers.pglite(a, b),
  },
  {
    driver: 'postgres',
    open: (a: StoreOptions, b: StoreOptions) => drivers.postgres(servers.postgres, a, b),
  },
])('a task answer nobody sends on $driver', ({ open }) => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await fleet?.close();
    fleet = undefined;
  });

  /** A task call made on host A (which never polls), its question listed on A and B. */
  const start = async (scope: string, tool: string, a: StoreOptions, b: StoreOptions = a) => {
    fleet = await open({ pollMs: 0, ...a }, { pollMs: 0, ...b });
    const makerBridge = await bridgeOf('maker');
    const maker = fleet.a.durableCalls({ clientFor: () => makerBridge, work: false });
    const [inboxA, inboxB] = [await fleet.a.inbox(scope), await fleet.b.inbox(scope)];
    const started = await maker.callTool(scope, 'tasks', { name: tool });
    expect(started.status).toBe('waiting');
    await expect.poll(() => inboxB.getSnapshot().length).toBe(1);
    const request: Request = inboxB.getSnapshot()[0]!;
    const taskId = String((request.data?.origin as { taskId?: string }).taskId);
    const row = async () => {
      const [found] = await fleet!.query(
        `SELECT state, outcome, answer, answered_by, sending_by, delivered_at IS NOT NULL AS sent
          FROM waitfor_questions WHERE id = $1`,
        [request.id],
      );
      return found!;
    };
    return { inboxA, inboxB, request, taskId, row };
  };

  it('no host polls the task: submit is false at the bound and not before; the answer is removed, the question asked again in every inbox', async () => {
    let clock = Date.now();
    const { inboxA, inboxB, request, taskId, row } = await start('wait', 'hold', {
      now: () => clock,
    });
    // Fake timers that still run with real time, so the database's own timers keep working.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    let word: boolean | undefined;
    const won = inboxB.submit(accept(request, { hold: 'eu' }), { answeredBy: 'ann' });
    void won.then((value) => (word = value));
    await expect.poll(async () => (await row()).state).toBe('answered');
    await expect.poll(() => inboxA.getSnapshot()).toEqual([]);

    // One millisecond short of the default bound (60 s) on the store's clock: still waiting.
    clock += 59_999;
    await vi.advanceTimersByTimeAsync(60_000);
    await inboxB.refresh();
    expect(word).toBeUndefined();
    expect(await row()).toMatchObject({ state: 'answered', sending_by: null, sent: false });

    clock += 1;
    await vi.advanceTimersByTimeAsync(1);
    expect(await won).toBe(false);
    expect(await row()).toEqual({
      state: 'open',
      outcome: null,
      answer: null,
      answered_by: null,
      sending_by: null,
      sent: false,
    });
    // The same question, in every inbox, as it was asked.
    await expect.poll(() => inboxA.getSnapshot()).toEqual([request]);
    await expect.poll(() => inboxB.getSnapshot()).toEqual([request]);
    expect(updatesOf(taskId)).toEqual([]);
  });

  it('the bound passes while the poller that took the answer is about to send it: submit is true, the answer is never given back and reaches the server', async () => {
    let clock = Date.now();
    const { inboxA, request, taskId, row } = await start('sent', 'ask_region', {
      now: () => clock,
    });
    const poller = held(await bridgeOf('b'));
    fleet!.b.durableCalls({ clientFor: () => poller.caller, leaseMs: 60_000 });
    // The poller is watching the task.
    await expect
      .poll(() =>
        servers.tasks.log.some(
          (e) => e.params.taskId === taskId && e.headers['x-waitfor-host'] === 'b',
        ),
      )
      .toBe(true);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    const won = inboxA.submit(accept(request, { region: 'eu' }));
    // Taken: the poller holds the answer in its hand, its tasks/update not yet sent.
    await expect.poll(() => poller.state.sending?.length).toBe(1);
    expect(await row()).toMatchObject({ state: 'answered', sending_by: 'b', sent: false });

    clock += 60_000;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await won).toBe(true);
    expect(await row()).toMatchObject({ state: 'answered', sending_by: 'b', sent: false });
    expect(updatesOf(taskId)).toEqual([]);

    poller.state.release();
    await expect.poll(() => updatesOf(taskId).length).toBe(1);
    expect(JSON.stringify(updatesOf(taskId)[0])).toContain('"region":"eu"');
    await expect.poll(async () => (await row()).sent).toBe(true);
    expect((await row()).state).toBe('answered');
  });

  it('an answer given back is never sent: the poller that takes over sends only the answer given after it', async () => {
    // Host A's inbox gives an answer back at once (no wait); host B waits as long as the default.
    const { inboxA, inboxB, request, taskId, row } = await start(
      'back',
      'ask_region',
      { taskAnswerWaitMs: 0 },
      {},
    );
    expect(await inboxA.submit(accept(request, { region: 'given back' }))).toBe(false);
    expect((await row()).state).toBe('open');
    await expect.poll(() => inboxB.getSnapshot()).toEqual([request]);

    const bridge = await bridgeOf('b');
    fleet!.b.durableCalls({ clientFor: () => bridge });
    await expect
      .poll(() =>
        servers.tasks.log.some(
          (e) => e.params.taskId === taskId && e.headers['x-waitfor-host'] === 'b',
        ),
      )
      .toBe(true);
    expect(await inboxB.submit(accept(request, { region: 'kept' }))).toBe(true);
    const updates = updatesOf(taskId);
    expect(updates).toHaveLength(1);
    expect(JSON.stringify(updates[0])).toContain('"region":"kept"');
    expect(await row()).toMatchObject({ state: 'answered', sending_by: 'b', sent: true });
  });
});
