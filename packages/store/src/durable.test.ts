/**
 * Durable modern-era calls through the store: a real dual-era MCP server over HTTP, real v2
 * clients, two hosts on one database. Questions are answered on one host; whichever host claims
 * the call resumes it; the caller awaits the result from its own host.
 */
import { accept } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  openClient,
  scriptedPerson,
  textOf,
  useDualEraServer,
} from '../../mcp-bridge/src/__fixtures__/clients';
import type { OpenClient } from '../../mcp-bridge/src/__fixtures__/clients';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';

const mcp = useDualEraServer();
let server: PostgresServer | undefined;
const clients: OpenClient[] = [];
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server?.destroy();
});

// A durable call never asks in process: every question goes through the store.
const neverAsked = scriptedPerson(() => {
  throw new Error('durable calls must not ask in-process');
});
const client = async () => {
  const opened = await openClient(
    'v2-modern',
    'http',
    { url: mcp.url },
    { waitFor: neverAsked.waitFor },
  );
  clients.push(opened);
  return opened.bridge;
};

describe.each([
  { driver: 'pglite', open: () => drivers.pglite({ pollMs: 0 }) },
  { driver: 'postgres', open: () => drivers.postgres(server!, { pollMs: 0 }) },
])('durable calls on $driver', ({ open }) => {
  let fleet: Fleet | undefined;
  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  it('saves a call, its questions answered on another host, resumed (two rounds) by whichever host claims it', async () => {
    fleet = await open();
    const [clientA, clientB] = [await client(), await client()];
    const callsA = fleet.a.durableCalls({ clientFor: () => clientA });
    fleet.b.durableCalls({ clientFor: () => clientB });
    const inboxA = await fleet.a.inbox('alice');
    const inboxB = await fleet.b.inbox('alice');

    const started = await callsA.callTool('alice', 'fixture', { name: 'two_rounds' });
    expect(started.status).toBe('waiting');
    const result = callsA.result(started.callId);
    await expect
      .poll(() => inboxB.getSnapshot().map((request) => request.prompt))
      .toEqual(['Which city?']);
    expect(await inboxB.submit(accept(inboxB.getSnapshot()[0]!, { city: 'Lima' }))).toBe(true);
    // The next round's question comes back through the store, shown on every host.
    await expect
      .poll(() => inboxA.getSnapshot().map((request) => request.prompt))
      .toEqual(['Confirm Lima?']);
    expect(await inboxA.submit(accept(inboxA.getSnapshot()[0]!, { confirm: true }))).toBe(true);
    expect(textOf(await result)).toBe('city=Lima confirm=true');
    expect(neverAsked.seen).toEqual([]);

    const [call] = await fleet.query(
      'SELECT state, claimed_by, suspension, trace FROM waitfor_calls WHERE call_id = $1',
      [started.callId],
    );
    expect(call).toMatchObject({ state: 'complete', claimed_by: null, suspension: null });
    // One resume per round: a claim is taken once, never twice, and each claim is recorded.
    expect((call!.trace as { outcome: string }[]).map((step) => step.outcome)).toEqual([
      'suspended',
      'claimed',
      'suspended',
      'claimed',
      'complete',
    ]);
    // Resumed with the answers, then their data is gone.
    const answers = await fleet.query(
      'SELECT answer FROM waitfor_questions WHERE call_id = $1 ORDER BY seq',
      [started.callId],
    );
    expect(answers.map((row) => Object.keys(row.answer as object).sort())).toEqual([
      ['id', 'ok'],
      ['id', 'ok'],
    ]);
  });
});

it('takes over a call whose host died holding it, once its lease ran out', async () => {
  const fleet = await drivers.postgres(server!, { pollMs: 0 });
  try {
    const clientB = await client();
    // A only makes calls; nobody works yet.
    const callsA = fleet.a.durableCalls({ clientFor: () => client(), work: false });
    const inboxA = await fleet.a.inbox('bob');
    const started = await callsA.callTool('bob', 'fixture', { name: 'ask_form' });
    expect(started.status).toBe('waiting');
    await expect.poll(() => inboxA.getSnapshot().length).toBe(1);
    const request = inboxA.getSnapshot()[0]!;
    expect(await inboxA.submit(accept(request, { name: 'Ada', age: 36 }))).toBe(true);
    // A host claimed it and died: its lease is past and it never renews it.
    await fleet.query(
      `UPDATE waitfor_calls SET state = 'running', claimed_by = 'dead',
        lease_until = now() - interval '1 second' WHERE call_id = $1`,
      [started.callId],
    );
    fleet.b.durableCalls({ clientFor: () => clientB, leaseMs: 5_000 });
    const result = await callsA.result(started.callId);
    expect(textOf(result)).toContain('Ada');
    const [call] = await fleet.query('SELECT state, trace FROM waitfor_calls WHERE call_id = $1', [
      started.callId,
    ]);
    expect(call).toMatchObject({
      state: 'complete',
      trace: [{}, { outcome: 'claimed', by: 'b' }, { outcome: 'complete', by: 'b' }],
    });
  } finally {
    await fleet.close();
  }
});

describe('a durable call whose resume fails', () => {
  const askForm = async (fleet: Fleet) => {
    const callsA = fleet.a.durableCalls({ clientFor: () => client(), work: false });
    const inboxA = await fleet.a.inbox('carol');
    const started = await callsA.callTool('carol', 'fixture', { name: 'ask_form' });
    await expect.poll(() => inboxA.getSnapshot().length).toBe(1);
    expect(await inboxA.submit(accept(inboxA.getSnapshot()[0]!, { name: 'Grace' }))).toBe(true);
    return { callsA, started };
  };

  it('is tried again later when the failure may pass (no client yet), and completes', async () => {
    const fleet = await drivers.postgres(server!, { pollMs: 0 });
    try {
      const clientB = await client();
      let failures = 1;
      const { callsA, started } = await askForm(fleet);
      fleet.b.durableCalls({
        clientFor: () => {
          if (failures-- > 0) throw new Error('the connection to fixture is not up yet');
          return clientB;
        },
        retryMs: 200,
      });
      expect(textOf(await callsA.result(started.callId))).toContain('Grace');
      const [call] = await fleet.query('SELECT trace FROM waitfor_calls WHERE call_id = $1', [
        started.callId,
      ]);
      expect((call!.trace as { outcome: string }[]).map((step) => step.outcome)).toEqual([
        'suspended',
        'claimed',
        'retry',
        'claimed',
        'complete',
      ]);
    } finally {
      await fleet.close();
    }
  });

  it('fails for good after its last attempt: result rejects with call_failed', async () => {
    const fleet = await drivers.postgres(server!, { pollMs: 0 });
    try {
      const { callsA, started } = await askForm(fleet);
      fleet.b.durableCalls({
        clientFor: () => {
          throw new Error('fixture is gone');
        },
        retryMs: 0,
        maxAttempts: 2,
      });
      await expect(callsA.result(started.callId)).rejects.toMatchObject({
        code: 'call_failed',
        details: { message: 'fixture is gone' },
      });
      const [call] = await fleet.query(
        'SELECT state, trace FROM waitfor_calls WHERE call_id = $1',
        [started.callId],
      );
      expect(call!.state).toBe('failed');
      expect((call!.trace as { outcome: string }[]).map((step) => step.outcome)).toEqual([
        'suspended',
        'claimed',
        'retry',
        'claimed',
        'failed',
      ]);
    } finally {
      await fleet.close();
    }
  });
});
