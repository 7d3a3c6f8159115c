/**
 * A host in a process of its own, for the fleet tests: `tsx host.ts <database> <instance> <mcpUrl>
 * <leaseMs> <pollMs>`, where <database> is a postgres:// connection string or a PGlite data
 * directory. It opens the inbox of scope `fleet` and two real v2 clients of the MCP server at
 * <mcpUrl> through the bridge: a legacy-era one whose questions go to that inbox (this host holds
 * the connection), and a modern-era one for durable calls. Prints `ready`, then takes one JSON
 * command a line on stdin and answers each with one JSON line `{ n, ... }` (or `{ n, error }`):
 * - `{ n, op: 'legacy', tool }` calls the tool in the legacy era: `{ n, text }` once it completes;
 * - `{ n, op: 'modern', tool }` starts a durable call: `{ n, callId }` (or `{ n, text }` at once);
 * - `{ n, op: 'result', callId }` awaits a durable call's result: `{ n, text }`;
 * - `{ n, op: 'questions', count }` waits until the inbox lists `count`: `{ n, questions }`;
 * - `{ n, op: 'answer', id, content }` submits an accept: `{ n, won }`;
 * - `{ n, op: 'stop' }` closes the store and the clients, replies `{ n }` and exits.
 */
import { createInterface } from 'node:readline';
import { accept } from '@waitfor/core';
import { openClient, textOf } from '../../../mcp-bridge/src/__fixtures__/clients';
import { createStore, pgliteDriver, postgresDriver } from '../index';

const [database, instance, mcpUrl, leaseMs, pollMs] = process.argv.slice(2);
const store = await createStore({
  driver: database!.startsWith('postgres://')
    ? postgresDriver({ connectionString: database! })
    : pgliteDriver({ dataDir: database! }),
  instance: instance!,
  leaseMs: Number(leaseMs),
  pollMs: Number(pollMs),
});
const inbox = await store.inbox('fleet', { answeredBy: instance! });
const legacy = await openClient('v2-legacy', 'http', { url: mcpUrl! }, { waitFor: inbox.waitFor });
// A durable call never asks in process: its questions go through the store.
const modern = await openClient(
  'v2-modern',
  'http',
  { url: mcpUrl! },
  {
    waitFor: () => {
      throw new Error('a durable call asked in process');
    },
  },
);
const calls = store.durableCalls({ clientFor: () => modern.bridge, leaseMs: Number(leaseMs) });

const reply = (message: Record<string, unknown>): void => console.log(JSON.stringify(message));

const listed = (count: number): Promise<{ id: string; prompt: string }[]> =>
  new Promise((resolve) => {
    const check = (): void => {
      const snapshot = inbox.getSnapshot();
      if (snapshot.length !== count) return;
      stop();
      resolve(snapshot.map(({ id, prompt }) => ({ id, prompt })));
    };
    const stop = inbox.subscribe(check);
    check();
  });

const run = async (command: Record<string, unknown>): Promise<Record<string, unknown>> => {
  switch (command.op) {
    case 'legacy': {
      const result = await legacy.client.callTool({ name: String(command.tool) });
      return { text: textOf(result) };
    }
    case 'modern': {
      const started = await calls.callTool('fleet', 'fixture', { name: String(command.tool) });
      return started.status === 'waiting'
        ? { callId: started.callId }
        : { text: textOf(started.result) };
    }
    case 'result':
      return { text: textOf(await calls.result(String(command.callId))) };
    case 'questions':
      return { questions: await listed(Number(command.count)) };
    case 'answer':
      return {
        won: await inbox.submit(
          accept(String(command.id), command.content as Record<string, string | number>),
        ),
      };
    case 'stop':
      await store.close();
      await Promise.all([legacy.close(), modern.close()]);
      return {};
    default:
      throw new Error(`unknown command ${String(command.op)}`);
  }
};

reply({ ready: instance });
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as Record<string, unknown>;
  void run(command).then(
    (result) => {
      reply({ n: command.n, ...result });
      if (command.op === 'stop') process.exit(0);
    },
    (error: unknown) => reply({ n: command.n, error: String(error) }),
  );
}
