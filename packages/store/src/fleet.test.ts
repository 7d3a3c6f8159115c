/**
 * A fleet of three host processes (host.ts) on one PostgreSQL, each with real v2 clients of a
 * real dual-era MCP server over HTTP through the bridge: questions asked on A in both eras,
 * answered through B, the tools completing on A (legacy: A holds the connection) or on whichever
 * host claims the durable call (modern), the result read from C; and A killed with -9 mid-question.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useDualEraServer } from '../../mcp-bridge/src/__fixtures__/clients';
import type { HostProcess } from './__fixtures__/hosts';
import { killHosts, startHost } from './__fixtures__/hosts';
import type { PostgresServer } from './__fixtures__/postgresServer';
import { startPostgres } from './__fixtures__/postgresServer';

const mcp = useDualEraServer();
let server: PostgresServer | undefined;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  killHosts();
  await server?.destroy();
});

const profile = { name: 'Ada', age: 36 };

/** Three hosts on a fresh database of their own. */
async function fleetOf(database: string): Promise<[HostProcess, HostProcess, HostProcess]> {
  await server!.createDatabase(database);
  const url = server!.url(database);
  // One after the other: the first migrates (the others would wait on its lock anyway).
  const a = await startHost(url, 'a', mcp.url);
  const [b, c] = await Promise.all([startHost(url, 'b', mcp.url), startHost(url, 'c', mcp.url)]);
  return [a, b, c];
}

const questionsOf = async (host: HostProcess, count: number) =>
  (await host.send('questions', { count })).questions as { id: string; prompt: string }[];

it('answers through B the questions both eras raised on A; legacy completes on A, the durable call on whichever host claims it, read from C', async () => {
  const [a, b, c] = await fleetOf('three_hosts');
  const legacy = a.send('legacy', { tool: 'ask_form' });
  const { callId } = await a.send('modern', { tool: 'ask_form' });
  expect(callId).toEqual(expect.any(String));
  // B and C learn of both questions by NOTIFY.
  const [listedB, listedC] = await Promise.all([questionsOf(b, 2), questionsOf(c, 2)]);
  expect(listedB.map((question) => question.prompt)).toEqual(['Who are you?', 'Who are you?']);
  expect(listedC).toEqual(listedB);
  const won = await Promise.all(
    listedB.map((question) => b.send('answer', { id: question.id, content: profile })),
  );
  expect(won.map((reply) => reply.won)).toEqual([true, true]);
  // Legacy: the server's request was held by A's connection; A's tool call completes.
  expect((await legacy).text).toContain('Ada');
  // Modern: resumed by a host that claimed it; the result is read from C.
  expect((await c.send('result', { callId })).text).toContain('Ada');
  // Everyone's inbox is empty again.
  await Promise.all([a, b, c].map((host) => questionsOf(host, 0)));
  await Promise.all([a, b, c].map((host) => host.send('stop')));
});

it('kill -9 of A mid-question: its legacy question ends closed everywhere, its durable call is answered and resumed by another host', async () => {
  const [a, b, c] = await fleetOf('killed_host');
  const legacy = a.send('legacy', { tool: 'ask_form' }).catch(() => 'never answered');
  const { callId } = await a.send('modern', { tool: 'ask_form' });
  const listed = await questionsOf(b, 2);
  await questionsOf(c, 2);
  await a.kill();
  expect(await legacy).toBe('never answered');
  // Nobody renews A's lease now: the hosts' sweeps close its legacy question for everyone; the
  // durable call's question is the store's, not A's, and stays open.
  const [left] = await questionsOf(b, 1);
  expect(await questionsOf(c, 1)).toEqual([left]);
  expect(listed.map((question) => question.id)).toContain(left!.id);
  expect((await b.send('answer', { id: left!.id, content: profile })).won).toBe(true);
  expect((await c.send('result', { callId })).text).toContain('Ada');
  const { default: pg } = await import('pg');
  const direct = new pg.Client({ connectionString: server!.url('killed_host') });
  await direct.connect();
  try {
    // Hidden from every list once A's lease ran out; closed by a sweep after the grace period.
    await expect
      .poll(
        async () =>
          (
            await direct.query(
              `SELECT state FROM waitfor_questions WHERE asked_by = 'a' AND call_id IS NULL`,
            )
          ).rows,
        { timeout: 30_000, interval: 250 },
      )
      .toEqual([{ state: 'closed' }]);
    const { rows: questions } = await direct.query(
      'SELECT state, asked_by, call_id IS NOT NULL AS durable FROM waitfor_questions ORDER BY seq',
    );
    expect(questions).toEqual(
      expect.arrayContaining([
        { state: 'closed', asked_by: 'a', durable: false },
        { state: 'answered', asked_by: 'a', durable: true },
      ]),
    );
    const { rows: calls } = await direct.query(
      'SELECT state, trace FROM waitfor_calls WHERE call_id = $1',
      [callId],
    );
    expect(calls[0]!.state).toBe('complete');
    const resumedBy = (calls[0]!.trace as { by?: string }[]).at(-1)?.by;
    expect(['b', 'c']).toContain(resumedBy);
  } finally {
    await direct.end();
  }
  await Promise.all([b, c].map((host) => host.send('stop')));
});
