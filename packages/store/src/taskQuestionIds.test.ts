/**
 * A task question's Request id is the one a person's page keys on: it must stay the same for
 * (call, task, key) across the poller's polls, the new suspensions other answers bring, and a
 * take-over by another host's poller (reading the saved suspension, as another process would).
 * PGlite and a real PostgreSQL, the real 2026-07-28 tasks server over HTTP.
 */
import { accept } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { afterEach, describe, expect, it } from 'vitest';
import { textOf } from '../../mcp-bridge/src/__fixtures__/clients';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import { useTaskServers } from './__fixtures__/taskClient';

const servers = useTaskServers();
const { bridgeOf } = servers;

const keyOf = (request: Request) =>
  (request.data?.origin as { inputKey?: string } | undefined)?.inputKey;

describe.each([
  { driver: 'pglite', open: () => drivers.pglite({ pollMs: 0 }) },
  { driver: 'postgres', open: () => drivers.postgres(servers.postgres, { pollMs: 0 }) },
])('task question ids on $driver', ({ open }) => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  it('stay the same for each key across polls, a new suspension and a take-over; each key has one row', async () => {
    fleet = await open();
    const makerBridge = await bridgeOf('maker');
    const maker = fleet.a.durableCalls({ clientFor: () => makerBridge, work: false });
    const bridgeB = await bridgeOf('b');
    const callsB = fleet.b.durableCalls({ clientFor: () => bridgeB, leaseMs: 1_000 });
    const inbox = await fleet.a.inbox('uma');
    const started = await maker.callTool('uma', 'tasks', { name: 'ask_three' });
    await expect.poll(() => inbox.getSnapshot().length).toBe(3);
    const idOf = () => new Map(inbox.getSnapshot().map((request) => [keyOf(request), request.id]));
    const first = idOf();
    const taskId = String((inbox.getSnapshot()[0]!.data?.origin as { taskId: string }).taskId);
    const polls = () =>
      servers.tasks.log.filter(
        (entry) => entry.method === 'tasks/get' && entry.params.taskId === taskId,
      );

    // Many polls by B, then an answer that brings a new suspension (a left the open set).
    await expect.poll(() => polls().length).toBeGreaterThan(10);
    expect(
      await inbox.submit(
        accept(
          inbox.getSnapshot().find((r) => keyOf(r) === 'a')!,
          { a: 'x' },
        ),
      ),
    ).toBe(true);
    await expect.poll(() => inbox.getSnapshot().length).toBe(2);
    expect(idOf()).toEqual(new Map([...first].filter(([key]) => key !== 'a')));

    // B stops; A takes the task over once B's lease ran out, from the saved suspension.
    callsB.close();
    const bridgeA = await bridgeOf('a');
    const callsA = fleet.a.durableCalls({ clientFor: () => bridgeA, leaseMs: 1_000 });
    const claims = async () => {
      await callsA.work();
      const [call] = await fleet!.query('SELECT trace FROM waitfor_calls WHERE call_id = $1', [
        started.callId,
      ]);
      return (call!.trace as { outcome: string; by: string }[])
        .filter((step) => step.outcome === 'claimed')
        .map((step) => step.by);
    };
    await expect.poll(claims, { timeout: 10_000 }).toEqual(['b', 'a']);
    const takenAt = polls().length;
    await expect
      .poll(
        () =>
          polls()
            .slice(takenAt)
            .filter((e) => e.headers['x-waitfor-host'] === 'a').length,
      )
      .toBeGreaterThan(5);
    await inbox.refresh();
    expect(idOf()).toEqual(new Map([...first].filter(([key]) => key !== 'a')));

    // The ids the person first saw still answer the task.
    expect(await inbox.submit(accept(first.get('b')!, { b: 'y' }))).toBe(true);
    expect(await inbox.submit(accept(first.get('c')!))).toBe(true);
    expect(textOf(await maker.result(started.callId))).toBe('a=x, b=y, c=accept');
    const rows = await fleet.query(
      `SELECT origin->>'inputKey' AS key, count(*)::int AS n FROM waitfor_questions
        WHERE call_id = $1 GROUP BY 1 ORDER BY 1`,
      [started.callId],
    );
    expect(rows).toEqual([
      { key: 'a', n: 1 },
      { key: 'b', n: 1 },
      { key: 'c', n: 1 },
    ]);
  });
});
