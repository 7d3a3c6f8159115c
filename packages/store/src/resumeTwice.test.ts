/**
 * A durable call whose resuming host dies after its retry reached the server: at least once toward
 * the server, made safe and visible. Real dual-era MCP server over HTTP, a real PostgreSQL, the
 * resuming host a process of its own (killed with -9) behind a proxy that keeps the server's answer
 * from it, so the server has done the work and the host never learns it.
 */
import { accept } from '@waitfor/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  openClient,
  scriptedPerson,
  textOf,
  useDualEraServer,
} from '../../mcp-bridge/src/__fixtures__/clients';
import type { OpenClient } from '../../mcp-bridge/src/__fixtures__/clients';
import { killHosts, startHost } from './__fixtures__/hosts';
import { startHoldingProxy } from './__fixtures__/holdingProxy';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';
import { createStore, postgresDriver } from './index';

const mcp = useDualEraServer();
let server: PostgresServer;
const clients: OpenClient[] = [];
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  killHosts();
  await Promise.all(clients.map((client) => client.close()));
  await server?.destroy();
});

const neverAsked = scriptedPerson(() => {
  throw new Error('durable calls must not ask in-process');
});
const directClient = async () => {
  const opened = await openClient('v2-modern', 'http', { url: mcp.url }, neverAsked);
  clients.push(opened);
  return opened.bridge;
};

interface Retry {
  requestState?: string;
  inputResponses?: unknown;
}

it('sends the same retry again, byte for byte, when the host that sent it died; completes once; every reader gets the one stored result', async () => {
  await server.createDatabase('resume_twice');
  const connectionString = server.url('resume_twice');
  // The second round's retry carries the server's signed requestState: its answer is swallowed.
  const proxy = await startHoldingProxy(mcp.url, (body) => body.includes('"requestState"'));
  const maker = await createStore({
    driver: postgresDriver({ connectionString }),
    instance: 'maker',
    pollMs: 0,
  });
  try {
    const direct = await directClient();
    const calls = maker.durableCalls({ clientFor: () => direct, work: false });
    const inbox = await maker.inbox('fleet');
    const resumer = await startHost(connectionString, 'h1', proxy.url, {
      leaseMs: 1_000,
      pollMs: 0,
    });
    const started = await calls.callTool('fleet', 'fixture', { name: 'two_rounds' });
    expect(started.status).toBe('waiting');
    await expect
      .poll(() => inbox.getSnapshot().map((request) => request.prompt))
      .toEqual(['Which city?']);
    expect(await inbox.submit(accept(inbox.getSnapshot()[0]!, { city: 'Lima' }))).toBe(true);
    await expect
      .poll(() => inbox.getSnapshot().map((request) => request.prompt))
      .toEqual(['Confirm Lima?']);
    expect(await inbox.submit(accept(inbox.getSnapshot()[0]!, { confirm: true }))).toBe(true);
    // h1 claimed the call and sent the retry; the server did the work; h1 dies before it hears.
    await expect.poll(() => proxy.held, { timeout: 30_000 }).toBe(1);
    await resumer.kill();

    // Another host takes the call over once h1's claim runs out, and sends the retry again.
    const taker = await createStore({
      driver: postgresDriver({ connectionString }),
      instance: 'h2',
      pollMs: 200,
    });
    const takerDirect = await directClient();
    const takerCalls = taker.durableCalls({ clientFor: () => takerDirect, leaseMs: 1_000 });
    try {
      const result = await calls.result(started.callId);
      expect(textOf(result)).toBe('city=Lima confirm=true');

      const retries = mcp.received
        .map(({ message }) => message as { method?: string; params?: Retry })
        .filter((message) => message.method === 'tools/call' && message.params?.requestState);
      expect(retries).toHaveLength(2);
      // The same bytes both times: a server can deduplicate on them.
      expect(retries[1]!.params!.requestState).toBe(retries[0]!.params!.requestState);
      expect(JSON.stringify(retries[1]!.params!.inputResponses)).toBe(
        JSON.stringify(retries[0]!.params!.inputResponses),
      );

      // The record shows both attempts at the second round.
      const { default: pg } = await import('pg');
      const look = new pg.Client({ connectionString });
      await look.connect();
      const [call] = (await look.query('SELECT state, round, attempts, trace FROM waitfor_calls'))
        .rows;
      await look.end();
      expect(call).toMatchObject({ state: 'complete', round: 2, attempts: 2 });
      const steps = (call.trace as { round: number; outcome: string; by: string }[]).map(
        ({ round, outcome, by }) => `${round} ${outcome} ${by}`,
      );
      expect(steps).toEqual([
        '1 suspended maker',
        '1 claimed h1',
        '1 suspended h1',
        '2 claimed h1',
        '2 claimed h2',
        '2 complete h2',
      ]);

      // Stored once, read by every host, never run again.
      expect(await takerCalls.result(started.callId)).toEqual(result);
      await takerCalls.work();
      await taker.sweep();
      expect(await calls.result(started.callId)).toEqual(result);
      expect(
        mcp.received.filter(
          ({ message }) => (message as { params?: Retry }).params?.requestState !== undefined,
        ),
      ).toHaveLength(2);
    } finally {
      await taker.close();
    }
  } finally {
    await maker.close();
    await proxy.close();
  }
});
