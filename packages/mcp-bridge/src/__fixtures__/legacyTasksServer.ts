/**
 * A 2025-11-25 tasks server written with the v1 SDK's own experimental tasks support
 * (`@modelcontextprotocol/sdk` 1.32.2: `registerToolTask`, `InMemoryTaskStore`,
 * `InMemoryTaskMessageQueue`), over sessionful Streamable HTTP on 127.0.0.1.
 *
 * Task tools (all `execution.taskSupport: "required"`): their questions are `elicitation/create`
 * requests queued for the task (related-task `_meta`), which the SDK delivers only on the client's
 * `tasks/result` stream while the task is `input_required`.
 * - `ask_region`: one form question (`region`), completes with text `region=<value>` (or the action);
 * - `ask_three`: `a` and `b` (form) and `c` (url) outstanding at once, completes with
 *   `a=<a> b=<b> c=<action>`;
 * - `ask_twice`: `first`, then once answered `second`; completes with `first=<1> second=<2>`;
 * - `slow {ms}`: working for `ms`, then `slow done`, no questions;
 * - `fail`: ends `failed` with an `isError` result (text `it failed`);
 * - `hold`: one form question that stays open until the task is cancelled.
 * Plain tools that make the CLIENT the receiver of task-augmented `elicitation/create`
 * (`server.experimental.tasks.elicitInputStream` with `task: {ttl}`):
 * - `ask_later {ttl?}`: one task-augmented form question; text `created:<ttl> answer:<json>` or
 *   `error:<message>`;
 * - `flood {count}`: `count` task-augmented questions at once; text `created=<n> refused=<m> codes=<the refusals' JSON-RPC codes>`;
 * - `probe_task {taskId}`: the server's own `tasks/get` for a task id on the client; text
 *   `status:<status>` or `error:<code>`;
 * - `cancel_later`: one task-augmented question, then (once the test calls `proceed()`) its
 *   `tasks/cancel`; text `cancelled:<status the client answered>` or `error:<message>`.
 * `streamed` holds what the server's own task stream (`elicitInputStream`) yielded, in order.
 *
 * `log` holds every JSON-RPC request the server received, in order (method, params, the
 * Mcp-Session-Id); `cancelTask(taskId)` cancels server-side; `pollInterval` is the tasks' interval;
 * `offers` leaves `tasks.list` / `tasks.cancel` out of the capabilities; `shared` keeps tasks
 * across sessions (`legacyTasksSharing.ts`; by default the SDK binds a task to its session).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
  type CreateTaskRequestHandlerExtra,
  type TaskMessageQueue,
  type TaskRequestHandlerExtra,
} from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateTaskResultSchema,
  ElicitResultSchema,
  GetTaskResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { Readers, SessionTaskQueue, SharedTaskStore, type Asker } from './legacyTasksSharing';

/** One request the server received. */
export interface LoggedRequest {
  method: string;
  params: Record<string, unknown>;
  /** The Mcp-Session-Id it came with (absent on the initialize that opens a session). */
  session?: string;
}

export interface LegacyTasksServerOptions {
  /** The tasks' pollInterval in ms (default 50: tests wait for events, not for time). */
  pollInterval?: number;
  /** Whether `capabilities.tasks` declares `list` and `cancel` (default both). */
  offers?: { list?: boolean; cancel?: boolean };
  /**
   * Tasks outlive the session that made them (default false: the SDK's InMemoryTaskStore binds a
   * task to its session, so another session's tasks/get is "Task not found"). When true, the
   * store binds tasks to no session (a single-user server, which the spec allows with unguessable
   * ids) and a task's questions are asked on the session reading its tasks/result: asked again
   * there when the stream that carried one closed unanswered.
   */
  shared?: boolean;
}

export interface LegacyTasksServer {
  url: string;
  log: LoggedRequest[];
  /** Every elicitation answer the server received for its tasks, in order. */
  answers: Array<{ taskId: string; key: string; result: Record<string, unknown> }>;
  /** What `ask_later`'s stream yielded: `taskCreated`, `taskStatus:<status>`, `result`, `error`. */
  streamed: string[];
  /** Let `cancel_later` send its tasks/cancel. */
  proceed(): void;
  /**
   * A fresh server session over the v1 SDK's in-memory transport pair: the client's end, to
   * connect a v1 client to (what HTTP would cost per message is not what a flood test measures).
   */
  memoryTransport(): Promise<Transport>;
  /** Cancel a task server-side (as if the server gave up on it). */
  cancelTask(taskId: string): Promise<void>;
  close(): Promise<void>;
}

type Question = { key: string; mode: 'form' | 'url' };

const form = (key: string) => ({
  mode: 'form' as const,
  message: `Your ${key}?`,
  requestedSchema: { type: 'object' as const, properties: { [key]: { type: 'string' as const } } },
});

/** Ask `questions` for `taskId` at once, through the task's queue; resolves with their results. */
async function askForTask(
  asker: Asker,
  store: RequestTaskStore,
  taskId: string,
  questions: Question[],
  record: LegacyTasksServer['answers'],
): Promise<Record<string, Record<string, unknown>>> {
  await store.updateTaskStatus(taskId, 'input_required');
  const asked = questions.map(async ({ key, mode }) => {
    const params =
      mode === 'url'
        ? {
            mode,
            message: `Open for ${key}`,
            url: `https://example.com/${key}`,
            elicitationId: key,
          }
        : form(key);
    let result: unknown;
    for (;;) {
      const { mcp, signal } = await asker(taskId);
      try {
        result = await mcp.server.request(
          { method: 'elicitation/create', params },
          ElicitResultSchema,
          // Hours are normal for a person; the test ends the task instead.
          { relatedTask: { taskId }, timeout: 2_147_483_647, signal },
        );
        break;
      } catch (error) {
        // The stream that carried it closed unanswered: ask where the task is read next.
        if (!signal.aborted) throw error;
      }
    }
    record.push({ taskId, key, result: result as Record<string, unknown> });
    return [key, result as Record<string, unknown>] as const;
  });
  const results = Object.fromEntries(await Promise.all(asked));
  await store.updateTaskStatus(taskId, 'working');
  return results;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const valueOf = (result: Record<string, unknown> | undefined, key: string) => {
  const content = result?.['content'] as Record<string, unknown> | undefined;
  return result?.['action'] === 'accept' && content !== undefined
    ? String(content[key] ?? 'accept')
    : String(result?.['action']);
};

/** The task tools; `work` runs in the background once the task exists. */
function registerTaskTools(
  mcp: McpServer,
  options: Required<LegacyTasksServerOptions>,
  answers: LegacyTasksServer['answers'],
  asker: Asker,
) {
  const task = (
    name: string,
    inputSchema: z.ZodRawShape,
    work: (args: Record<string, unknown>, store: RequestTaskStore, taskId: string) => Promise<void>,
  ) =>
    mcp.experimental.tasks.registerToolTask(
      name,
      { inputSchema, execution: { taskSupport: 'required' } },
      {
        createTask: async (args: Record<string, unknown>, extra: CreateTaskRequestHandlerExtra) => {
          const created = await extra.taskStore.createTask({
            ttl: 60_000,
            pollInterval: options.pollInterval,
          });
          void work(args, extra.taskStore, created.taskId).catch(() => undefined);
          return { task: created };
        },
        getTask: async (_args: unknown, extra: TaskRequestHandlerExtra) =>
          extra.taskStore.getTask(extra.taskId),
        getTaskResult: async (_args: unknown, extra: TaskRequestHandlerExtra) =>
          extra.taskStore.getTaskResult(extra.taskId),
      } as never,
    );
  const ask = (store: RequestTaskStore, taskId: string, questions: Question[]) =>
    askForTask(asker, store, taskId, questions, answers);
  task('ask_region', {}, async (_args, store, taskId) => {
    const results = await ask(store, taskId, [{ key: 'region', mode: 'form' }]);
    await store.storeTaskResult(
      taskId,
      'completed',
      text(`region=${valueOf(results['region'], 'region')}`),
    );
  });
  task('ask_three', {}, async (_args, store, taskId) => {
    const keys: Question[] = [
      { key: 'a', mode: 'form' },
      { key: 'b', mode: 'form' },
      { key: 'c', mode: 'url' },
    ];
    const results = await ask(store, taskId, keys);
    const line = keys.map(({ key }) => `${key}=${valueOf(results[key], key)}`).join(' ');
    await store.storeTaskResult(taskId, 'completed', text(line));
  });
  task('ask_twice', {}, async (_args, store, taskId) => {
    const first = await ask(store, taskId, [{ key: 'first', mode: 'form' }]);
    const second = await ask(store, taskId, [{ key: 'second', mode: 'form' }]);
    const line = `first=${valueOf(first['first'], 'first')} second=${valueOf(second['second'], 'second')}`;
    await store.storeTaskResult(taskId, 'completed', text(line));
  });
  task('slow', { ms: z.number() }, async ({ ms }, store, taskId) => {
    await new Promise((resolve) => setTimeout(resolve, Number(ms)));
    await store.storeTaskResult(taskId, 'completed', text('slow done'));
  });
  task('fail', {}, async (_args, store, taskId) => {
    await store.storeTaskResult(taskId, 'failed', { ...text('it failed'), isError: true });
  });
  task('hold', {}, async (_args, store, taskId) => {
    await ask(store, taskId, [{ key: 'held', mode: 'form' }]);
  });
}

/** What the receiver tools share with the test. */
interface ReceiverHooks {
  streamed: string[];
  gate: () => Promise<void>;
}

/** The plain tools that send task-augmented elicitation/create to the client. */
function registerReceiverTools(mcp: McpServer, hooks: ReceiverHooks) {
  const elicitLater = async (ttl: number) => {
    let created: unknown;
    for await (const message of mcp.server.experimental.tasks.elicitInputStream(form('later'), {
      task: { ttl },
      timeout: 2_147_483_647,
    })) {
      hooks.streamed.push(
        message.type === 'taskStatus' ? `taskStatus:${message.task.status}` : message.type,
      );
      if (message.type === 'taskCreated') created = message.task.ttl;
      if (message.type === 'result')
        return `created:${created} answer:${JSON.stringify(message.result)}`;
      if (message.type === 'error') return `created:${created} error:${message.error.message}`;
    }
    return 'no result';
  };
  mcp.registerTool('ask_later', { inputSchema: { ttl: z.number().optional() } }, async ({ ttl }) =>
    text(await elicitLater(ttl ?? 60_000)),
  );
  mcp.registerTool('flood', { inputSchema: { count: z.number() } }, async ({ count }) => {
    const sent = Array.from({ length: count }, () =>
      mcp.server.request(
        { method: 'elicitation/create', params: form('flood') },
        z.any() as never,
        {
          task: { ttl: 60_000 },
          timeout: 2_147_483_647,
        },
      ),
    );
    const settled = await Promise.allSettled(sent);
    const created = settled.filter((entry) => entry.status === 'fulfilled').length;
    const codes = new Set(
      settled.flatMap((entry) =>
        entry.status === 'rejected' ? [String((entry.reason as { code?: unknown }).code)] : [],
      ),
    );
    return text(`created=${created} refused=${count - created} codes=${[...codes].join(',')}`);
  });
  mcp.registerTool('cancel_later', {}, async () => {
    try {
      const created = await mcp.server.request(
        { method: 'elicitation/create', params: form('withdrawn') },
        CreateTaskResultSchema,
        { task: { ttl: 60_000 } },
      );
      await hooks.gate();
      const cancelled = await mcp.server.experimental.tasks.cancelTask(created.task.taskId);
      return text(`cancelled:${cancelled.status}`);
    } catch (error) {
      return text(`error:${(error as Error).message}`);
    }
  });
  mcp.registerTool('probe_task', { inputSchema: { taskId: z.string() } }, async ({ taskId }) => {
    try {
      const task = await mcp.server.request(
        { method: 'tasks/get', params: { taskId } },
        GetTaskResultSchema,
      );
      return text(`status:${task.status}`);
    } catch (error) {
      return text(`error:${String((error as { code?: unknown }).code)}`);
    }
  });
}

/** The session's own asker: its questions go out where the task was made (the SDK's way). */
const never = new AbortController().signal;

function createTasksServer(
  store: InMemoryTaskStore,
  queue: TaskMessageQueue,
  options: Required<LegacyTasksServerOptions>,
  answers: LegacyTasksServer['answers'],
  hooks: ReceiverHooks,
  readers: Readers | undefined,
): McpServer {
  const mcp = new McpServer(
    { name: 'legacy-tasks-fixture', version: '1.0.0' },
    {
      capabilities: {
        tasks: {
          requests: { tools: { call: {} } },
          ...(options.offers.list !== false && { list: {} }),
          ...(options.offers.cancel !== false && { cancel: {} }),
        },
      },
      taskStore: store,
      taskMessageQueue: queue,
    },
  );
  const asker: Asker = readers
    ? (taskId) => readers.next(taskId)
    : async () => ({ mcp, signal: never });
  registerTaskTools(mcp, options, answers, asker);
  registerReceiverTools(mcp, hooks);
  return mcp;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0
    ? undefined
    : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
}

/** Start the fixture on 127.0.0.1 (an ephemeral port). */
export async function startLegacyTasksServer(
  options: LegacyTasksServerOptions = {},
): Promise<LegacyTasksServer> {
  const settings = {
    pollInterval: options.pollInterval ?? 50,
    offers: options.offers ?? {},
    shared: options.shared ?? false,
  };
  const store = settings.shared ? new SharedTaskStore() : new InMemoryTaskStore();
  const readers = settings.shared ? new Readers() : undefined;
  const servers = new Map<StreamableHTTPServerTransport, McpServer>();
  const queue = settings.shared ? new SessionTaskQueue() : new InMemoryTaskMessageQueue();
  const log: LoggedRequest[] = [];
  const answers: LegacyTasksServer['answers'] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let proceed: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (proceed = resolve));
  const hooks: ReceiverHooks = {
    streamed: [],
    // One pass per proceed(): the next cancel_later waits for the next call.
    gate: async () => {
      await gate;
      gate = new Promise<void>((resolve) => (proceed = resolve));
    },
  };
  const http = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      const sessionId = request.headers['mcp-session-id'];
      const session = typeof sessionId === 'string' ? sessionId : undefined;
      const existing = session === undefined ? undefined : sessions.get(session);
      for (const message of Array.isArray(body) ? body : [body]) {
        const record = message as { method?: unknown; id?: unknown; params?: unknown } | undefined;
        if (typeof record?.method !== 'string' || record.id === undefined) continue;
        const params = structuredClone(record.params ?? {}) as Record<string, unknown>;
        log.push({ method: record.method, params, ...(session !== undefined && { session }) });
        const mcp = existing && servers.get(existing);
        if (readers && mcp && record.method === 'tasks/result') {
          // This session reads the task now; its stream closing ends what was asked on it.
          const closed = new AbortController();
          response.on('close', () => closed.abort());
          readers.attach(String(params['taskId']), mcp, closed.signal);
        }
      }
      if (existing !== undefined) return existing.handleRequest(request, response, body);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
        servers.delete(transport);
      };
      const mcp = createTasksServer(store, queue, settings, answers, hooks, readers);
      servers.set(transport, mcp);
      await mcp.connect(transport);
      return transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    answers,
    streamed: hooks.streamed,
    proceed: () => proceed(),
    memoryTransport: async () => {
      const [client, serverEnd] = InMemoryTransport.createLinkedPair();
      await createTasksServer(store, queue, settings, answers, hooks, undefined).connect(serverEnd);
      return client;
    },
    cancelTask: (taskId) => store.updateTaskStatus(taskId, 'cancelled', 'The server gave up'),
    close: async () => {
      await Promise.all(
        [...sessions.values()].map((transport) => transport.close().catch(() => undefined)),
      );
      store.cleanup();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
