/**
 * Benchmark — http inbox. A real Node http server with @waitfor/http's handler over one in-memory
 * inbox, and two remote inboxes (Node's fetch, the same code a browser runs) on one scope: the time
 * from an answer in one page until the change has reached the other's snapshot (median and p99);
 * and the server's memory per connected event-stream client, with 1,000 clients (in a child
 * process, so their own memory is not counted) on one instance.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { accept, createInbox } from '@waitfor/core';
import { createInboxHandler } from '@waitfor/http';
import { createRemoteInbox } from '@waitfor/http/client';
import { toNodeListener } from '@waitfor/http/node';
import { ms } from './format';
import { question, until } from './inboxQuestions';
import { collectGarbage, median, quantile } from './stats';
import type { BenchResult } from './result';

/** Answers timed (after WARMUP untimed ones). */
export const ANSWERS = 300;
const WARMUP = 30;
/** Event-stream clients connected for the memory figure. */
export const CLIENTS = 1_000;

async function startServer() {
  const inbox = createInbox();
  const handler = createInboxHandler({
    inboxFor: () => inbox,
    authorize: (request) =>
      request.headers.get('authorization') === 'Bearer bench' ? 'person' : null,
    allowedOrigins: ['http://bench.test'],
    maxStreamsPerScope: CLIENTS + 10,
  });
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { inbox, handler, server, url: `http://127.0.0.1:${port}` };
}

async function answerLatencies(): Promise<number[]> {
  const { inbox, handler, server, url } = await startServer();
  const headers = { authorization: 'Bearer bench', origin: 'http://bench.test' };
  const [first, second] = [
    createRemoteInbox({ url, headers }),
    createRemoteInbox({ url, headers }),
  ];
  const latencies: number[] = [];
  for (let index = 0; index < WARMUP + ANSWERS; index++) {
    const request = question(`q${index}`);
    void inbox.waitFor(request);
    await until(first, () => first.get(request.id) !== undefined);
    await until(second, () => second.get(request.id) !== undefined);
    const start = performance.now();
    const gone = until(second, () => second.get(request.id) === undefined);
    if (!first.answer(accept(request))) throw new Error(`${request.id} was not sent`);
    await gone;
    if (index >= WARMUP) latencies.push(performance.now() - start);
  }
  first.close();
  second.close();
  handler.closeStreams();
  server.closeAllConnections();
  server.close();
  return latencies;
}

async function memoryPerClient(): Promise<{ heap: number; rss: number }> {
  const { inbox, handler, server, url } = await startServer();
  // Some open questions, as a real snapshot would carry.
  for (let index = 0; index < 10; index++) void inbox.waitFor(question(`open${index}`));
  collectGarbage();
  const before = process.memoryUsage();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./sseClients.ts', import.meta.url)),
      `${url}/events`,
      String(CLIENTS),
      'bench',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => text.includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`the clients exited with ${String(code)}`)));
  });
  const connections = await new Promise<number>((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
  if (connections < CLIENTS) throw new Error(`only ${connections} clients connected`);
  collectGarbage();
  const after = process.memoryUsage();
  child.kill();
  handler.closeStreams();
  server.closeAllConnections();
  server.close();
  return {
    heap: (after.heapUsed - before.heapUsed) / CLIENTS,
    rss: (after.rss - before.rss) / CLIENTS,
  };
}

/** Run the http-inbox benchmark. */
export async function benchHttpInbox(): Promise<BenchResult> {
  const latencies = await answerLatencies();
  const memory = await memoryPerClient();
  return {
    id: 'http-inbox',
    title: 'http inbox: answer to a second page, memory per stream',
    method:
      'A Node http server with createInboxHandler over one in-memory inbox on 127.0.0.1; two createRemoteInbox on one scope (Node fetch). Time from answer() in one until the question left the other snapshot; then 1,000 event streams opened by a child process, server heap and RSS before and after (after GC) ÷ 1,000.',
    figures: [
      {
        name: 'answer → change at a second remote inbox: median',
        value: median(latencies),
        unit: 'ms',
        runs: latencies.length,
      },
      {
        name: 'answer → change at a second remote inbox: p99',
        value: quantile(latencies, 0.99),
        unit: 'ms',
        runs: latencies.length,
        detail: `max ${ms(Math.max(...latencies))}`,
      },
      {
        name: `server heap per connected event stream (${CLIENTS.toLocaleString('en-US')} clients)`,
        value: Math.round(memory.heap),
        unit: 'bytes',
        runs: 1,
      },
      {
        name: `server RSS per connected event stream (${CLIENTS.toLocaleString('en-US')} clients)`,
        value: Math.round(memory.rss),
        unit: 'bytes',
        runs: 1,
        detail: 'includes sockets and buffers outside the JS heap',
      },
    ],
    notes: [],
  };
}
