import type { Request as WaitforRequest } from '@waitfor/core';
import { createStore } from '@waitfor/store';
import type { Store, StoreInbox } from '@waitfor/store';
import type { TasksServer } from '../../../mcp-bridge/src/__fixtures__/tasksServer';
import { startTasksServer } from '../../../mcp-bridge/src/__fixtures__/tasksServer';
import type { TaskClient } from '../../../store/src/__fixtures__/taskClient';
import { openTaskClient } from '../../../store/src/__fixtures__/taskClient';
import type { AnswerableInbox } from '../handler';
import type { Host } from './host';
import { startHost } from './host';

/**
 * A host whose questions are a task's in `@waitfor/store`, asked by a real v2 client of the real
 * 2026-07-28 tasks server, with no host polling the task: an answer waits for a poller up to
 * `taskAnswerWaitMs`, then is given back. `wrap` may watch the store's inbox the handler serves.
 */
export interface TaskHost {
  store: Store;
  client: TaskClient;
  host: Host;
  /** Starts a task call (the server's `hold` tool) for `scope`; resolves once its question is listed. */
  ask(scope: string): Promise<{ inbox: AnswerableInbox; question: WaitforRequest }>;
  close(): Promise<void>;
}

/** Starts the tasks server, the store, the task client and the handler on a real Node server. */
export async function startTaskHost(
  taskAnswerWaitMs: number,
  wrap: (inbox: StoreInbox) => AnswerableInbox = (inbox) => inbox,
): Promise<TaskHost> {
  const tasks: TasksServer = await startTasksServer({ pollInterval: 50 });
  const store = await createStore({ pollMs: 0, taskAnswerWaitMs });
  const client = await openTaskClient(tasks.url, 'maker');
  const host = await startHost({
    name: 'store inbox, task question nobody polls',
    async open() {
      return { inboxFor: async (scope) => wrap(await store.inbox(scope)), close: async () => {} };
    },
  });
  return {
    store,
    client,
    host,
    async ask(scope) {
      const calls = store.durableCalls({ clientFor: () => client.bridge, work: false });
      const started = await calls.callTool(scope, 'tasks', { name: 'hold' });
      if (started.status !== 'waiting') throw new Error(`the call is ${started.status}`);
      const inbox = await host.inboxFor(scope);
      const listed = () => inbox.getSnapshot()[0];
      const question =
        listed() ??
        (await new Promise<WaitforRequest>((resolve) => {
          const stop = inbox.subscribe(() => {
            const first = listed();
            if (first === undefined) return;
            stop();
            resolve(first);
          });
        }));
      return { inbox, question };
    },
    async close() {
      await host.close();
      await client.close();
      await store.close();
      await tasks.close();
    },
  };
}
