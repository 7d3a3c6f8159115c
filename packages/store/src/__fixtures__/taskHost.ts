/**
 * A host of task-backed durable calls in a process of its own: `tsx taskHost.ts <database>
 * <instance> <tasksUrl> <leaseMs> <pollMs> <work> [legacy]`. It opens the inbox of scope `fleet`
 * and a real modern-era v2 client of the 2026-07-28 tasks server at <tasksUrl> (taskClient.ts) —
 * with `legacy`, a v1 client of a 2025-11-25 tasks server there, attached with the inbox's waitFor
 * (a task's pushed questions are asked through the store) — and durable calls that poll tasks
 * when <work> is `work` (else it only makes calls and answers). Prints
 * `ready`, then takes one JSON command a line (see hosts.ts) and answers each with one JSON line:
 * - `{ n, op: 'call', tool, arguments }` starts a durable call: `{ n, callId }` (or `{ n, text }`);
 * - `{ n, op: 'result', callId }` awaits its result: `{ n, text }`, or `{ n, error }`;
 * - `{ n, op: 'questions', count, except? }` waits until the inbox lists `count` (ids in `except`
 *   left out): `{ n, questions }`;
 * - `{ n, op: 'session' }` the client's HTTP session id (legacy): `{ n, session }`;
 * - `{ n, op: 'answer', id, content }` submits an accept: `{ n, won }`;
 * - `{ n, op: 'stop' }` closes the store and the client, replies `{ n }` and exits.
 */
import { createInterface } from 'node:readline';
import { accept } from '@waitfor/core';
import { openClient, textOf } from '../../../mcp-bridge/src/__fixtures__/clients';
import type { DurableCaller } from '../calls/durableCalls';
import { createStore, pgliteDriver, postgresDriver } from '../index';
import { openTaskClient } from './taskClient';

const [database, instance, tasksUrl, leaseMs, pollMs, work, era] = process.argv.slice(2);
const store = await createStore({
  driver: database!.startsWith('postgres://')
    ? postgresDriver({ connectionString: database! })
    : pgliteDriver({ dataDir: database! }),
  instance: instance!,
  leaseMs: Number(leaseMs),
  pollMs: Number(pollMs),
});
const inbox = await store.inbox('fleet', { answeredBy: instance! });
const client =
  era === 'legacy'
    ? await openClient('v1', 'http', { url: tasksUrl! }, { waitFor: inbox.waitFor })
    : await openTaskClient(tasksUrl!, instance!);
const calls = store.durableCalls({
  clientFor: () => client.bridge as unknown as DurableCaller,
  leaseMs: Number(leaseMs),
  work: work === 'work',
});

const reply = (message: Record<string, unknown>): void => console.log(JSON.stringify(message));

const listed = (count: number, except: string[] = []): Promise<{ id: string; prompt: string }[]> =>
  new Promise((resolve) => {
    const check = (): void => {
      const snapshot = inbox.getSnapshot().filter(({ id }) => !except.includes(id));
      if (snapshot.length !== count) return;
      stop();
      resolve(snapshot.map(({ id, prompt }) => ({ id, prompt })));
    };
    const stop = inbox.subscribe(check);
    check();
  });

const run = async (command: Record<string, unknown>): Promise<Record<string, unknown>> => {
  switch (command.op) {
    case 'call': {
      const started = await calls.callTool('fleet', 'tasks', {
        name: String(command.tool),
        arguments: (command.arguments ?? {}) as Record<string, unknown>,
      });
      return started.status === 'waiting'
        ? { callId: started.callId }
        : { text: textOf(started.result) };
    }
    case 'result':
      return { text: textOf(await calls.result(String(command.callId))) };
    case 'questions':
      return {
        questions: await listed(Number(command.count), (command.except ?? []) as string[]),
      };
    case 'session':
      return {
        session: (client as { client?: { transport?: { sessionId?: string } } }).client?.transport
          ?.sessionId,
      };
    case 'answer':
      return {
        won: await inbox.submit(
          accept(String(command.id), command.content as Record<string, string | number>),
        ),
      };
    case 'stop':
      await store.close();
      await client.close();
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
