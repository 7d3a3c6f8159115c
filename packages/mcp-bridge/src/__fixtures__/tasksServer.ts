/**
 * A 2026-07-28 MCP server implementing the Tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`)
 * over Streamable HTTP on 127.0.0.1, written with node:http from the SEP and the conformance suite's
 * `tasks-*` server scenarios (the v2 server SDK 2.4.0 has no Tasks support, and its result seam
 * refuses `resultType: "task"`). It passes those scenarios (conformance/tasksServer.test.ts), so it
 * is an independent server, not a mirror of any client.
 *
 * What it implements: stateless requests (per-request `_meta` with protocolVersion and
 * clientCapabilities; `server/discover`), SEP-2243 routing headers (`Mcp-Method` on every request,
 * `Mcp-Name` = tool name on tools/call and = taskId on tasks/get, tasks/update, tasks/cancel; missing
 * or different → HTTP 400, -32020), server-directed task creation only for a request that declares
 * the extension (a required-task tool otherwise → -32021 with `requiredCapabilities`), `tasks/get`
 * (DetailedTask), `tasks/update` (partial maps; keys not outstanding are ignored), `tasks/cancel`
 * (idempotent empty ack), `tasks/result` / `tasks/list` absent (-32601), an MRTR round before a
 * task (`test_tool_with_task`), and, with `listen: true`, `subscriptions/listen` with `taskIds`
 * (acknowledged, then each task's current state, then a full task on every change; the stream ends
 * with the listen result once every subscribed task is terminal).
 *
 * Tools (arguments in braces):
 * - `ask_region` — form key `region` (field `region`), outstanding on every poll until answered;
 *   completes with text `region=<value>` (or `region=<action>` when not accepted).
 * - `ask_three` — keys `a` (form, field `a`), `b` (form, field `b`), `c` (URL elicitation), all
 *   outstanding at once, each leaving the set as it is answered; completes with `a=…, b=…, c=<action>`.
 * - `ask_twice` — key `first` (form); once answered, key `second` (form) in a later status;
 *   completes with `first=…, second=…`.
 * - `ask_annotated` — form key `note` (field `note`) whose params also carry the server's `_meta`
 *   and a field no revision defines (`priority`); completes with `note=<value or action>`.
 * - `hold` — form key `hold` that stays outstanding (answers are ignored) until the task is cancelled.
 * - `slow {ms}` — working for `ms` milliseconds, then completes with `slept <ms>`.
 * - `fail` — fails with a JSON-RPC error (-32603).
 * - Conformance fixtures: `greet {name}` (never a task: `Hello, <name>!`), `slow_compute {seconds,
 *   label}` (task when the client declares the extension, otherwise synchronous), `failing_job`
 *   (required task; completes with `isError: true`), `protocol_error_job` (→ failed), `confirm_delete
 *   {filename}` (key `confirm`), `multi_input` (keys `name` and `confirm` at once),
 *   `test_tool_with_task` (MRTR key `user_name`, then a task answering `Hello, <name>!`).
 * Every tool but `greet`, `slow` and `slow_compute` requires the extension.
 *
 * Test hooks: `log` (every `tasks/*` request received, in order, with params, lower-cased headers and
 * a `performance.now()` time), `listens` (every `subscriptions/listen` with `taskIds` served: the
 * task ids asked and the headers, so a test tells which client listened), `cancelTask(taskId)` (a server-side cancel), `finishTask(taskId,
 * result)` (completes a task with that tool result). Bounded: request bodies, live tasks, the log,
 * taskId length, keys read from one `inputResponses`; a finished task is forgotten `ttl` ms after it
 * ends.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** The Tasks extension identifier. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

const protocolVersion = '2026-07-28';
const limits = {
  bodyBytes: 1024 * 1024,
  taskIdLength: 128,
  log: 10_000,
  logBytes: 16 * 1024 * 1024,
  responseKeys: 64,
  listenTaskIds: 64,
  sleepMs: 600_000,
};

/** Options of the fixture server. */
export interface TasksServerOptions {
  /** Serve `subscriptions/listen` with `taskIds` (default false: clients must poll). */
  listen?: boolean;
  /** The `pollIntervalMs` every task advertises (default 100). */
  pollInterval?: number;
  /** The `ttlMs` of every task; a finished task is forgotten this long after it ends (default 300 000). */
  ttl?: number;
  /** Tasks kept at once (default 1000); a new task beyond it is refused with -32603. */
  maxTasks?: number;
  /** serverInfo name (default "tasks-fixture"); the version is "1.0.0". */
  name?: string;
}

/** One `tasks/*` request as the server received it. */
export interface TasksLogEntry {
  method: string;
  params: Record<string, unknown>;
  /** Request headers, names lower-cased. */
  headers: Record<string, string>;
  /** `performance.now()` when the request was parsed. */
  at: number;
}

/** A running fixture server. */
export interface TasksServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp */
  url: string;
  /** Every `tasks/*` request received so far, in arrival order (the oldest dropped past 10 000 or 16 MiB of bodies). */
  log: TasksLogEntry[];
  /** Every `subscriptions/listen` served (with `listen: true`), in arrival order, the last 10 000. */
  listens: { taskIds: string[]; headers: Record<string, string> }[];
  /** Cancel a task from the server side (it ends `cancelled`); throws for an unknown task. */
  cancelTask(taskId: string): void;
  /** Complete a task with this tool result; throws for an unknown task. */
  finishTask(taskId: string, result: Record<string, unknown>): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
type TaskSupport = 'forbidden' | 'optional' | 'required';

/** A JSON-RPC error to answer with; `status` is the HTTP status of the response. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly status = 200,
  ) {
    super(message);
  }
}

interface Task {
  taskId: string;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** Outstanding input requests, in the order they were issued. */
  outstanding: Map<string, Json>;
  /** Resolvers of the outstanding keys that take an answer (`hold` keys have none). */
  answer: Map<string, (response: Json) => void>;
  result?: Json;
  error?: { code: number; message: string; data?: unknown };
  controller: AbortController;
  watchers: Set<() => void>;
}

/** What a tool's job can do while it runs. */
interface JobContext {
  taskId: string;
  args: Json;
  signal: AbortSignal;
  /** Make `key` outstanding until it is answered; resolves with the answer. */
  ask(key: string, request: Json): Promise<Json>;
  /** Make `key` outstanding for good (answers are ignored); rejects when the task ends. */
  hold(key: string, request: Json): Promise<never>;
  sleep(ms: number): Promise<void>;
}

interface Tool {
  name: string;
  description: string;
  task: TaskSupport;
  run(context: JobContext): Promise<Json>;
}

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const own = (record: Json, key: string): unknown =>
  Object.hasOwn(record, key) ? record[key] : undefined;
const text = (value: string): Json => ({ content: [{ type: 'text', text: value }] });
const now = () => new Date().toISOString();
const clampMs = (value: unknown, scale = 1): number =>
  typeof value === 'number' && Number.isFinite(value)
    ? Math.min(limits.sleepMs, Math.max(0, Math.round(value * scale)))
    : 0;

const form = (message: string, field: string, type: 'string' | 'boolean' = 'string'): Json => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] },
  },
});

/** An answer as text: the accepted field's value, or the action ("decline", "cancel", "accept"). */
function answered(response: Json, field?: string): string {
  const action = typeof response.action === 'string' ? response.action : 'invalid';
  const content = own(response, 'content');
  if (action !== 'accept' || field === undefined || !isRecord(content)) return action;
  const value = own(content, field);
  return ['string', 'number', 'boolean'].includes(typeof value) ? String(value) : action;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const fixtureTools: Tool[] = [
  {
    name: 'ask_region',
    description: 'Asks for a region (form key "region").',
    task: 'required',
    run: async ({ ask }) =>
      text(`region=${answered(await ask('region', form('Which region?', 'region')), 'region')}`),
  },
  {
    name: 'ask_three',
    description: 'Asks three questions at once: forms "a" and "b", URL "c".',
    task: 'required',
    run: async ({ ask, taskId }) => {
      const url = {
        method: 'elicitation/create',
        params: {
          mode: 'url',
          message: 'Open the page to approve c.',
          url: `https://example.com/approve/${taskId}`,
          elicitationId: `c-${taskId}`,
        },
      };
      const [a, b, c] = await Promise.all([
        ask('a', form('Value of a?', 'a')),
        ask('b', form('Value of b?', 'b')),
        ask('c', url),
      ]);
      return text(`a=${answered(a, 'a')}, b=${answered(b, 'b')}, c=${answered(c)}`);
    },
  },
  {
    name: 'ask_twice',
    description: 'Asks "first", then (in a later status) "second".',
    task: 'required',
    run: async ({ ask }) => {
      const first = answered(await ask('first', form('First?', 'first')), 'first');
      const second = answered(await ask('second', form('Second?', 'second')), 'second');
      return text(`first=${first}, second=${second}`);
    },
  },
  {
    name: 'ask_annotated',
    description: 'Asks form key "note" with the server\'s _meta and an unknown field.',
    task: 'required',
    run: async ({ ask }) => {
      const { params } = form('A note?', 'note');
      const annotated = {
        method: 'elicitation/create',
        params: {
          ...(params as Json),
          _meta: { 'example.com/trace': 'trace-7' },
          priority: 'high',
        },
      };
      return text(`note=${answered(await ask('note', annotated), 'note')}`);
    },
  },
  {
    name: 'hold',
    description: 'Asks "hold" and keeps it outstanding until the task is cancelled.',
    task: 'required',
    run: ({ hold }) => hold('hold', form('Hold on?', 'hold')),
  },
  {
    name: 'slow',
    description: 'Works for `ms` milliseconds, then completes.',
    task: 'optional',
    run: async ({ args, sleep }) => {
      const ms = clampMs(own(args, 'ms'));
      await sleep(ms);
      return text(`slept ${ms}`);
    },
  },
  {
    name: 'fail',
    description: 'Fails with a JSON-RPC error.',
    task: 'required',
    run: () => Promise.reject(new RpcError(-32603, 'fail: the tool failed')),
  },
  {
    name: 'greet',
    description: 'Greets synchronously (never a task).',
    task: 'forbidden',
    run: async ({ args }) => {
      const name = own(args, 'name');
      return text(`Hello, ${typeof name === 'string' ? name : 'World'}!`);
    },
  },
  {
    name: 'slow_compute',
    description: 'Sleeps `seconds` seconds, then completes.',
    task: 'optional',
    run: async ({ args, sleep }) => {
      await sleep(clampMs(own(args, 'seconds'), 1000));
      const label = own(args, 'label');
      return text(`computed ${typeof label === 'string' ? label : 'result'}`);
    },
  },
  {
    name: 'failing_job',
    description: 'Completes with a tool error (isError).',
    task: 'required',
    run: async ({ sleep }) => {
      await sleep(250);
      return { ...text('failing_job: the job failed'), isError: true };
    },
  },
  {
    name: 'protocol_error_job',
    description: 'Fails with a protocol error.',
    task: 'required',
    run: () => Promise.reject(new RpcError(-32603, 'protocol_error_job: internal error')),
  },
  {
    name: 'confirm_delete',
    description: 'Asks to confirm deleting `filename` (key "confirm").',
    task: 'required',
    run: async ({ args, ask }) => {
      const file = own(args, 'filename');
      const answer = await ask('confirm', form(`Delete ${String(file)}?`, 'confirm', 'boolean'));
      const yes = answered(answer, 'confirm') === 'true';
      return text(`${yes ? 'deleted' : 'kept'} ${String(file)}`);
    },
  },
  {
    name: 'multi_input',
    description: 'Asks "name" and "confirm" at once.',
    task: 'required',
    run: async ({ ask }) => {
      const [name, confirm] = await Promise.all([
        ask('name', form('Your name?', 'name')),
        ask('confirm', form('Confirm?', 'confirm', 'boolean')),
      ]);
      return text(`name=${answered(name, 'name')}, confirm=${answered(confirm, 'confirm')}`);
    },
  },
  {
    name: 'test_tool_with_task',
    description: 'Asks `user_name` by MRTR, then becomes a task.',
    task: 'required',
    run: async ({ args, sleep }) => {
      await sleep(50);
      return text(`Hello, ${String(own(args, 'user_name'))}!`);
    },
  },
];

const terminal = (task: Task) => ['completed', 'failed', 'cancelled'].includes(task.status);

/** A job's failure as the task's JSON-RPC error. */
const failureOf = (error: unknown) =>
  error instanceof RpcError
    ? { code: error.code, message: error.message }
    : { code: -32603, message: String(error) };

/** Task state and its transitions; the HTTP layer below only parses, checks and dispatches. */
class TaskTable {
  readonly tasks = new Map<string, Task>();
  private readonly expiries = new Set<NodeJS.Timeout>();

  constructor(private readonly options: Required<Omit<TasksServerOptions, 'listen' | 'name'>>) {}

  /** The DetailedTask of `task` (tasks/get, notifications/tasks), without `resultType`. */
  view(task: Task): Json {
    return {
      taskId: task.taskId,
      status: task.status,
      ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: this.options.ttl,
      pollIntervalMs: this.options.pollInterval,
      ...(task.status === 'input_required'
        ? { inputRequests: Object.fromEntries(task.outstanding) }
        : {}),
      ...(task.status === 'completed' ? { result: task.result } : {}),
      ...(task.status === 'failed' ? { error: task.error } : {}),
    };
  }

  /** A new task running `tool`; visible to tasks/get before this returns. */
  create(tool: Tool, args: Json): Task {
    if (this.tasks.size >= this.options.maxTasks) throw new RpcError(-32603, 'Too many tasks');
    const at = now();
    const task: Task = {
      taskId: randomBytes(16).toString('hex'),
      status: 'working',
      createdAt: at,
      lastUpdatedAt: at,
      outstanding: new Map(),
      answer: new Map(),
      controller: new AbortController(),
      watchers: new Set(),
    };
    this.tasks.set(task.taskId, task);
    setImmediate(() => {
      tool.run(this.context(task, args)).then(
        (result) => this.finish(task, result),
        (error: unknown) => {
          const failure = failureOf(error);
          this.settle(task, { status: 'failed', error: failure, statusMessage: failure.message });
        },
      );
    });
    return task;
  }

  /** Deliver the answers for outstanding keys; any other key is ignored (SEP-2663). */
  update(task: Task, responses: Json): void {
    for (const key of Object.keys(responses).slice(0, limits.responseKeys)) {
      const resolve = task.answer.get(key);
      const response = responses[key];
      if (resolve === undefined || !isRecord(response)) continue;
      task.answer.delete(key);
      task.outstanding.delete(key);
      if (task.outstanding.size === 0) task.status = 'working';
      this.touch(task);
      resolve(response);
    }
  }

  find(taskId: unknown): Task {
    if (typeof taskId !== 'string' || taskId.length > limits.taskIdLength) {
      throw new RpcError(-32602, 'taskId must be a string of at most 128 characters');
    }
    const task = this.tasks.get(taskId);
    if (task === undefined) throw new RpcError(-32602, 'Failed to retrieve task: Task not found');
    return task;
  }

  cancel(task: Task): void {
    this.settle(task, { status: 'cancelled', statusMessage: 'Cancelled' });
  }

  finish(task: Task, result: Json): void {
    this.settle(task, { status: 'completed', result: { ...result, resultType: 'complete' } });
  }

  close(): void {
    for (const task of this.tasks.values()) task.controller.abort(new Error('server closed'));
    for (const expiry of this.expiries) clearTimeout(expiry);
    this.tasks.clear();
  }

  private touch(task: Task): void {
    task.lastUpdatedAt = now();
    for (const watcher of [...task.watchers]) watcher();
  }

  /** End a task once (later ends are ignored) and forget it `ttl` ms later. */
  private settle(task: Task, end: Pick<Task, 'status' | 'result' | 'error' | 'statusMessage'>) {
    if (terminal(task)) return;
    Object.assign(task, end);
    task.outstanding.clear();
    task.answer.clear();
    task.controller.abort(new Error(`task ${end.status}`));
    this.touch(task);
    const expiry = setTimeout(() => {
      this.expiries.delete(expiry);
      this.tasks.delete(task.taskId);
    }, this.options.ttl);
    expiry.unref();
    this.expiries.add(expiry);
  }

  private outstanding(task: Task, key: string, request: Json): void {
    if (task.controller.signal.aborted) throw task.controller.signal.reason;
    task.outstanding.set(key, request);
    task.status = 'input_required';
    this.touch(task);
  }

  private context(task: Task, args: Json): JobContext {
    const signal = task.controller.signal;
    const ended = () =>
      new Promise<never>((_, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    return {
      taskId: task.taskId,
      args,
      signal,
      ask: (key, request) => {
        this.outstanding(task, key, request);
        const answered = new Promise<Json>((resolve) => task.answer.set(key, resolve));
        return Promise.race([answered, ended()]);
      },
      hold: (key, request) => {
        this.outstanding(task, key, request);
        return ended();
      },
      sleep: (ms) => sleep(ms, signal),
    };
  }
}

/** The name SEP-2243 (and SEP-2663 for tasks/*) mirrors into `Mcp-Name`, if the method has one. */
function routedName(method: string, params: Json): unknown {
  if (method === 'tools/call' || method === 'prompts/get') return own(params, 'name');
  if (method === 'resources/read') return own(params, 'uri');
  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') {
    return own(params, 'taskId');
  }
  return undefined;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** The per-request envelope: the protocol version, then the routing headers. */
function checkEnvelope(request: IncomingMessage, method: string, params: Json): void {
  const meta = own(params, '_meta');
  const requested = isRecord(meta)
    ? own(meta, 'io.modelcontextprotocol/protocolVersion')
    : undefined;
  if (requested !== protocolVersion) {
    throw new RpcError(
      -32022,
      'Unsupported protocol version',
      {
        supported: [protocolVersion],
        requested: String(requested ?? header(request, 'mcp-protocol-version')).slice(0, 64),
      },
      400,
    );
  }
  const versionHeader = header(request, 'mcp-protocol-version');
  if (versionHeader !== undefined && versionHeader !== protocolVersion) {
    throw new RpcError(-32020, 'MCP-Protocol-Version header does not match _meta', undefined, 400);
  }
  if (header(request, 'mcp-method') !== method) {
    throw new RpcError(
      -32020,
      'Mcp-Method header missing or different from the method',
      undefined,
      400,
    );
  }
  const name = routedName(method, params);
  if (typeof name === 'string' && header(request, 'mcp-name') !== name) {
    throw new RpcError(
      -32020,
      'Mcp-Name header missing or different from the body',
      undefined,
      400,
    );
  }
}

/** Whether this request's own `_meta` declares the Tasks extension (SEP-2575: per request). */
function declaresTasks(params: Json): boolean {
  const meta = own(params, '_meta');
  const capabilities = isRecord(meta)
    ? own(meta, 'io.modelcontextprotocol/clientCapabilities')
    : undefined;
  const extensions = isRecord(capabilities) ? own(capabilities, 'extensions') : undefined;
  return isRecord(extensions) && isRecord(own(extensions, TASKS_EXTENSION));
}

const missingTasks = () =>
  new RpcError(-32021, 'Missing required client capability', {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });

const complete = (result: Json = {}): Json => ({ ...result, resultType: 'complete' });

const toolsByName = new Map(fixtureTools.map((tool) => [tool.name, tool]));

/** A job run inside the tools/call request (no task): it can wait but cannot ask. */
function syncContext(args: Json, signal: AbortSignal): JobContext {
  const cannotAsk = () => Promise.reject(new RpcError(-32603, 'This tool asks only inside a task'));
  return {
    taskId: '',
    args,
    signal,
    ask: cannotAsk,
    hold: cannotAsk,
    sleep: (ms) => sleep(ms, signal),
  };
}

/** `test_tool_with_task`: an MRTR round for `user_name`, then (answered) a task. */
function composed(table: TaskTable, tool: Tool, args: Json, params: Json): Json {
  const responses = own(params, 'inputResponses');
  const response = isRecord(responses) ? own(responses, 'user_name') : undefined;
  if (!isRecord(response)) {
    return {
      resultType: 'input_required',
      inputRequests: { user_name: form('What is your name?', 'name') },
    };
  }
  const task = table.create(tool, { ...args, user_name: answered(response, 'name') });
  return { ...table.view(task), resultType: 'task' };
}

async function callTool(table: TaskTable, params: Json, closing: AbortSignal): Promise<Json> {
  const name = own(params, 'name');
  const tool = typeof name === 'string' ? toolsByName.get(name) : undefined;
  if (tool === undefined) throw new RpcError(-32602, `Unknown tool: ${String(name).slice(0, 64)}`);
  const given = own(params, 'arguments');
  const args = isRecord(given) ? given : {};
  const tasks = declaresTasks(params);
  if (tool.task === 'required' && !tasks) throw missingTasks();
  if (tool.task === 'forbidden' || !tasks)
    return complete(await tool.run(syncContext(args, closing)));
  if (tool.name === 'test_tool_with_task') return composed(table, tool, args, params);
  const task = table.create(tool, args);
  return { ...table.view(task), resultType: 'task' };
}

function taskMethod(table: TaskTable, method: string, params: Json): Json {
  if (!declaresTasks(params)) throw missingTasks();
  const task = table.find(own(params, 'taskId'));
  if (method === 'tasks/get') return complete(table.view(task));
  if (method === 'tasks/update') {
    const responses = own(params, 'inputResponses');
    if (!isRecord(responses)) throw new RpcError(-32602, 'inputResponses must be an object');
    table.update(task, responses);
    return complete();
  }
  if (!terminal(task)) table.cancel(task);
  return complete();
}

const tools = fixtureTools.map(({ name, description }) => ({
  name,
  description,
  inputSchema: { type: 'object' },
}));

async function dispatch(
  table: TaskTable,
  method: string,
  params: Json,
  serverInfo: Json,
  closing: AbortSignal,
): Promise<Json> {
  const cache = { ttlMs: 0, cacheScope: 'private', _meta: serverInfo };
  switch (method) {
    case 'server/discover':
      return complete({
        supportedVersions: [protocolVersion],
        capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
        ...cache,
      });
    case 'tools/list':
      return complete({ tools, ...cache });
    case 'tools/call':
      return callTool(table, params, closing);
    case 'tasks/get':
    case 'tasks/update':
    case 'tasks/cancel':
      return taskMethod(table, method, params);
    case 'ping':
      return complete();
    default:
      throw new RpcError(-32601, `Method not found: ${method.slice(0, 64)}`);
  }
}

/**
 * `subscriptions/listen` with `taskIds`, as an SSE response: the acknowledgement (the known task ids
 * among those asked), each task's current state, then the full task on every change; the listen
 * result ends the stream once every acknowledged task is terminal.
 */
function listen(
  table: TaskTable,
  response: ServerResponse,
  id: string | number,
  params: Json,
  streams: Set<ServerResponse>,
): void {
  const filter = own(params, 'notifications');
  const asked = isRecord(filter) ? own(filter, 'taskIds') : undefined;
  const wanted = Array.isArray(asked)
    ? asked.slice(0, limits.listenTaskIds).filter((taskId) => typeof taskId === 'string')
    : [];
  if (wanted.length > 0 && !declaresTasks(params)) throw missingTasks();
  const tasks = [...new Set(wanted)].flatMap((taskId) => table.tasks.get(taskId) ?? []);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  streams.add(response);
  const write = (message: Json) =>
    response.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`);
  const watchers = new Map<Task, () => void>();
  const stop = () => {
    for (const [task, watcher] of watchers) task.watchers.delete(watcher);
    watchers.clear();
    streams.delete(response);
  };
  const endIfDone = () => {
    if (!tasks.every(terminal) || response.writableEnded) return;
    stop();
    write({ id, result: complete({ _meta: { 'io.modelcontextprotocol/subscriptionId': id } }) });
    response.end();
  };
  write({
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: { taskIds: tasks.map((task) => task.taskId) } },
  });
  for (const task of tasks) {
    const notify = () => {
      write({ method: 'notifications/tasks', params: table.view(task) });
      endIfDone();
    };
    watchers.set(task, notify);
    task.watchers.add(notify);
    write({ method: 'notifications/tasks', params: table.view(task) });
  }
  response.on('close', stop);
  endIfDone();
}

/** The request body, or undefined past the size limit (the rest is drained, not kept). */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limits.bodyBytes) chunks.push(chunk);
  }
  return size > limits.bodyBytes ? undefined : Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body?: Json): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

const rpcError = (id: unknown, error: RpcError): Json => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: error.code,
    message: error.message,
    ...(error.data === undefined ? {} : { data: error.data }),
  },
});

function headersOf(request: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : String(value),
    ]),
  );
}

/** The log of `tasks/*` requests, bounded by count and by the bytes of the bodies it keeps. */
function requestLog() {
  const entries: TasksLogEntry[] = [];
  const sizes: number[] = [];
  let bytes = 0;
  return {
    entries,
    record(request: IncomingMessage, method: string, params: Json, size: number) {
      entries.push({ method, params, headers: headersOf(request), at: performance.now() });
      sizes.push(size);
      bytes += size;
      while (entries.length > limits.log || bytes > limits.logBytes) {
        entries.shift();
        bytes -= sizes.shift() ?? 0;
      }
    },
  };
}

type Parsed =
  | { kind: 'request'; id: string | number; method: string; params: Json }
  | { kind: 'notification' }
  | { kind: 'refused'; status: number; body: Json };

/** A POSTed body as one JSON-RPC message (a 2026-07-28 request is never a batch). */
function parseMessage(raw: string): Parsed {
  const refuse = (status: number, code: number, message: string): Parsed => ({
    kind: 'refused',
    status,
    body: rpcError(null, new RpcError(code, message)),
  });
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return refuse(400, -32700, 'Parse error');
  }
  if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
    return refuse(400, -32600, 'Invalid request');
  }
  if (!Object.hasOwn(message, 'id')) return { kind: 'notification' };
  const { id, method } = message;
  if (typeof id !== 'string' && typeof id !== 'number') {
    return refuse(400, -32600, 'Invalid request id');
  }
  return { kind: 'request', id, method, params: isRecord(message.params) ? message.params : {} };
}

/** Start the fixture over Streamable HTTP on 127.0.0.1 with an ephemeral port. */
export async function startTasksServer(options: TasksServerOptions = {}): Promise<TasksServer> {
  const table = new TaskTable({
    pollInterval: Math.max(1, Math.round(options.pollInterval ?? 100)),
    ttl: Math.max(1, Math.round(options.ttl ?? 300_000)),
    maxTasks: options.maxTasks ?? 1000,
  });
  const serverInfo = {
    'io.modelcontextprotocol/serverInfo': {
      name: options.name ?? 'tasks-fixture',
      version: '1.0.0',
    },
  };
  const log = requestLog();
  const listens: TasksServer['listens'] = [];
  const streams = new Set<ServerResponse>();
  const closing = new AbortController();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp')
      return send(response, 404);
    if (request.method !== 'POST') return send(response, 405);
    const raw = await readBody(request);
    if (raw === undefined) {
      return send(response, 413, rpcError(null, new RpcError(-32600, 'Request body too large')));
    }
    const parsed = parseMessage(raw);
    if (parsed.kind === 'refused') return send(response, parsed.status, parsed.body);
    if (parsed.kind === 'notification') return send(response, 202);
    const { id, method, params } = parsed;
    if (method.startsWith('tasks/')) log.record(request, method, params, raw.length);
    try {
      checkEnvelope(request, method, params);
      if (method === 'subscriptions/listen' && options.listen === true) {
        const filter = own(params, 'notifications');
        const asked = isRecord(filter) ? own(filter, 'taskIds') : undefined;
        listens.push({
          taskIds: Array.isArray(asked) ? asked.slice(0, limits.listenTaskIds).map(String) : [],
          headers: headersOf(request),
        });
        if (listens.length > limits.log) listens.shift();
        return listen(table, response, id, params, streams);
      }
      const result = await dispatch(table, method, params, serverInfo, closing.signal);
      send(response, 200, { jsonrpc: '2.0', id, result });
    } catch (error) {
      const failure = error instanceof RpcError ? error : new RpcError(-32603, String(error));
      send(response, failure.status, rpcError(id, failure));
    }
  }

  const http = createServer((request, response) => {
    handle(request, response).catch(() => send(response, 500));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log: log.entries,
    listens,
    cancelTask: (taskId) => table.cancel(table.find(taskId)),
    finishTask: (taskId, result) => table.finish(table.find(taskId), result),
    close: async () => {
      closing.abort(new Error('server closed'));
      table.close();
      for (const stream of streams) stream.end();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
