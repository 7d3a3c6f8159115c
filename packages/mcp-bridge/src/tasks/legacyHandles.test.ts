/**
 * `bridge.tasks` on a 2025-11-25 task server (the v1 SDK's own experimental tasks,
 * `legacyTasksServer.ts`) over Streamable HTTP, with v1 and v2 (2025 handshake) clients: the same
 * handles, get, cancel and list as on a 2026-07-28 server, and a typed refusal where the server
 * does not offer what is asked.
 */
import type { WaitFor } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../attachWaitFor';
import type { BridgeError } from '../bridgeError';
import {
  heldPerson,
  openClient,
  textOf,
  type ClientKind,
  type OpenClient,
} from '../__fixtures__/clients';
import { rejection } from '../__fixtures__/hostileHelpers';
import { startLegacyTasksServer, type LegacyTasksServer } from '../__fixtures__/legacyTasksServer';

let server: LegacyTasksServer;
/** The same server without `tasks.list` and `tasks.cancel` in its capabilities. */
let bare: LegacyTasksServer;
beforeAll(async () => {
  [server, bare] = await Promise.all([
    startLegacyTasksServer(),
    startLegacyTasksServer({ offers: { list: false, cancel: false } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), bare.close()]);
});

/** Resolves once `condition` holds, checked after each turn of real I/O (no fixed sleep). */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 50_000 && !condition(); turn++)
    await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('condition never held');
}

const methodsOf = (target: LegacyTasksServer, from: number, taskId?: string) =>
  target.log
    .slice(from)
    .filter((entry) => taskId === undefined || entry.params['taskId'] === taskId)
    .map((entry) => entry.method);

const bridgeOf = (client: OpenClient) => client.bridge as unknown as Bridge;

describe.each<ClientKind>(['v1', 'v2-legacy'])(
  'bridge.tasks on 2025-11-25 tasks, %s client',
  (kind) => {
    const open = (target: LegacyTasksServer, waitFor: WaitFor) =>
      openClient(kind, 'http', { url: target.url }, { waitFor });
    /** Run `body` with a held person's client of `target`, closed however `body` ends. */
    const withTasks = async (
      target: LegacyTasksServer,
      body: (tasks: Bridge['tasks'], person: ReturnType<typeof heldPerson>) => Promise<void>,
    ) => {
      const person = heldPerson();
      const client = await open(target, person.waitFor);
      try {
        await body(bridgeOf(client).tasks, person);
      } finally {
        await client.close();
      }
    };

    it('a handle lists, reads and cancels its task; its question ends and the person is told', () =>
      withTasks(server, async (tasks, person) => {
        const handle = await tasks.start({ name: 'hold' });
        expect(handle.taskId).toMatch(/^[0-9a-f]{32}$/);
        const result = handle.result();
        await until(() => person.open.length === 1);
        // The pushed question names the server, the tool and the task, as a callTool's does.
        expect(person.open[0]!.request.data?.origin).toMatchObject({
          server: 'legacy-tasks-fixture',
          era: 'legacy',
          tool: 'hold',
          taskId: handle.taskId,
        });
        expect(await handle.status()).toMatchObject({
          taskId: handle.taskId,
          status: 'input_required',
        });
        const listed = await tasks.list();
        expect(listed.find((task) => task.taskId === handle.taskId)).toMatchObject({
          status: 'input_required',
        });
        const from = server.log.length;
        await handle.cancel();
        expect(methodsOf(server, from, handle.taskId)).toContain('tasks/cancel');
        expect((await rejection(result)).code).toBe('task_cancelled');
        await until(() => person.open[0]!.signal?.aborted === true);
        expect(await tasks.get(handle.taskId)).toMatchObject({ status: 'cancelled' });
      }));

    it('a handle’s result() asks and returns the final result; result() again shares it', () =>
      withTasks(server, async (tasks, person) => {
        const handle = await tasks.start({ name: 'ask_region' });
        const result = handle.result();
        expect(handle.result()).toBe(result);
        await until(() => person.open.length === 1);
        const { request, answer } = person.open[0]!;
        answer({ id: request.id, ok: true, data: { region: 'eu' } });
        expect(textOf(await result)).toBe('region=eu');
        expect(await handle.status()).toMatchObject({ status: 'completed' });
        expect(person.open).toHaveLength(1);
      }));

    it('bridge.tasks.cancel of any task id sends tasks/cancel; the task ends cancelled', () =>
      withTasks(server, async (tasks) => {
        const handle = await tasks.start({ name: 'hold' });
        await tasks.cancel(handle.taskId);
        expect((await tasks.get(handle.taskId)).status).toBe('cancelled');
        expect((await rejection(handle.result())).code).toBe('task_cancelled');
      }));

    it('a server that declares no tasks.list or tasks.cancel: both refused typed, nothing sent', () =>
      withTasks(bare, async (tasks) => {
        const handle = await tasks.start({ name: 'slow', arguments: { ms: 10 } });
        const from = bare.log.length;
        const listing = (await rejection(tasks.list())) as BridgeError;
        expect(listing.code).toBe('invalid_options');
        expect(listing.details).toMatchObject({ method: 'tasks/list' });
        const cancelling = (await rejection(handle.cancel())) as BridgeError;
        expect(cancelling.code).toBe('invalid_options');
        expect(cancelling.details).toMatchObject({ method: 'tasks/cancel' });
        expect(methodsOf(bare, from)).toEqual([]);
        // The task itself is unaffected: it completes and its result is read.
        expect(textOf(await handle.result())).toBe('slow done');
      }));
  },
);
