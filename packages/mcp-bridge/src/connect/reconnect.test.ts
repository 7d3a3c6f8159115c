/**
 * Connection state and reconnection against a real server process killed (-9) and started again
 * on the same port: reconnecting → connected, a call afterwards works, and a question open at the
 * kill ends with reason `connection_lost` (never left open).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { Answer, Request } from '@waitfor/core';
import { accept } from '@waitfor/core';
import { afterEach, describe, expect, it } from 'vitest';
import { textOf } from '../__fixtures__/clients';
import { CONNECTION_LOST } from './guardedWaitFor';
import { connect, type Connection } from '../index';

const child = new URL('../__fixtures__/httpServerChild.ts', import.meta.url).pathname;
// The server runs in node itself with tsx as a loader (the tsx CLI would put a second process
// between the test and the server, which SIGKILL on the first would leave running).
const tsxLoader = new URL('../../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const children: ChildProcess[] = [];
const connections: Connection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  for (const server of children.splice(0)) server.kill('SIGKILL');
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Start the fixture in a child on `port`; resolves with its URL once it listens. */
function startChild(port: number): Promise<{ url: string; process: ChildProcess }> {
  const server = spawn(process.execPath, ['--import', tsxLoader, child, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(server);
  return new Promise((resolve, reject) => {
    server.stdout?.once('data', (chunk: Buffer) =>
      resolve({ url: chunk.toString('utf8').trim(), process: server }),
    );
    server.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
}

async function kill(process: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => process.once('exit', resolve));
  process.kill('SIGKILL');
  await exited;
}

/**
 * Kill the server and keep its port taken by a listener that drops every connection, so that no
 * other test's server, started meanwhile on a port the system picks, can answer in its place.
 */
async function killAndHold(process: ChildProcess, port: number): Promise<void> {
  await kill(process);
  const holder = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  holders.push(holder);
}
const holders: Server[] = [];
afterEach(async () => {
  await Promise.all(
    holders.splice(0).map((holder) => new Promise((resolve) => holder.close(resolve))),
  );
});

const fast = { initialDelay: 20, maxDelay: 200, maxAttempts: 100 };

describe('connection state and reconnection (Streamable HTTP)', () => {
  it('ends a legacy question open at the kill with connection_lost, then reconnects', async () => {
    const port = await freePort();
    const first = await startChild(port);
    const asked: Array<{ request: Request; signal: AbortSignal | undefined }> = [];
    const answers: Answer[] = [];
    const connection = await connect(
      { url: first.url },
      {
        era: 'legacy',
        reconnect: fast,
        // The person never answers: only the lost connection can end the question.
        waitFor: (request, context) => {
          asked.push({ request, signal: context?.signal as AbortSignal | undefined });
          return new Promise(() => {});
        },
      },
    );
    connections.push(connection);
    connection.attachment.host.on('answer', ({ answer }) => answers.push(answer));
    const statuses: string[] = [];
    connection.state.subscribe(() => statuses.push(connection.state.getSnapshot().status));
    const before = connection.state.getSnapshot();
    expect(before.status).toBe('connected');
    expect(connection.state.getSnapshot()).toBe(before);

    const call = connection.callTool({ name: 'ask_form' }).then(
      () => 'resolved',
      () => 'rejected',
    );
    await expect.poll(() => asked.length, { timeout: 10_000 }).toBe(1);
    await kill(first.process);

    // The call and its question end; the question with the reason a UI can show.
    expect(await call).toBe('rejected');
    await expect.poll(() => answers[0]?.reason, { timeout: 10_000 }).toBe(CONNECTION_LOST);
    expect(asked[0]?.signal?.aborted).toBe(true);
    expect(connection.attachment.host.openRequests()).toEqual([]);
    await expect.poll(() => connection.state.getSnapshot().status).toBe('reconnecting');

    await startChild(port);
    await expect
      .poll(() => connection.state.getSnapshot().status, { timeout: 20_000 })
      .toBe('connected');
    expect(statuses).toContain('reconnecting');
    expect(statuses.at(-1)).toBe('connected');
    expect(textOf(await connection.callTool({ name: 'slow', arguments: { ms: 0 } }))).toBe(
      'slept 0',
    );
  }, 60_000);

  it('modern era: a call after the restart works (the session is set up again)', async () => {
    const port = await freePort();
    const first = await startChild(port);
    const connection = await connect(
      { url: first.url },
      {
        era: 'modern',
        reconnect: fast,
        waitFor: async (request) => accept(request, { name: 'Al' }),
      },
    );
    connections.push(connection);
    expect(textOf(await connection.callTool({ name: 'ask_form' }))).toBe('accept:{"name":"Al"}');
    await kill(first.process);
    // The first request after the kill finds the server gone.
    await expect(connection.listTools()).rejects.toThrow();
    await expect.poll(() => connection.state.getSnapshot().status).toBe('reconnecting');
    await startChild(port);
    await expect
      .poll(() => connection.state.getSnapshot().status, { timeout: 20_000 })
      .toBe('connected');
    expect(connection.era).toBe('modern');
    expect(textOf(await connection.callTool({ name: 'ask_form' }))).toBe('accept:{"name":"Al"}');
  }, 60_000);

  it('gives up after maxAttempts and is closed, with the last error', async () => {
    const port = await freePort();
    const first = await startChild(port);
    const connection = await connect(
      { url: first.url },
      {
        era: 'legacy',
        reconnect: { initialDelay: 5, maxDelay: 10, maxAttempts: 2 },
        waitFor: async (request) => accept(request),
      },
    );
    connections.push(connection);
    await killAndHold(first.process, port);
    await expect(connection.listTools()).rejects.toThrow();
    await expect
      .poll(() => connection.state.getSnapshot().status, { timeout: 10_000 })
      .toBe('closed');
    expect(connection.state.getSnapshot().error).toBeDefined();
  }, 30_000);

  it('close() while reconnecting stops the attempts (closed, and stays closed)', async () => {
    const port = await freePort();
    const first = await startChild(port);
    const connection = await connect(
      { url: first.url },
      {
        era: 'legacy',
        reconnect: { initialDelay: 60_000 },
        waitFor: async (request) => accept(request),
      },
    );
    await killAndHold(first.process, port);
    await expect(connection.listTools()).rejects.toThrow();
    await expect.poll(() => connection.state.getSnapshot().status).toBe('reconnecting');
    await connection.close();
    expect(connection.state.getSnapshot().status).toBe('closed');
  }, 30_000);
});
