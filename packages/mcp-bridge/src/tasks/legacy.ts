/**
 * The 2025-11-25 experimental tasks driver (the v1 SDK's `experimental/tasks`, spec 2025-11-25).
 *
 * A tools/call augmented with `task: {}` is answered with a CreateTaskResult; the task is then
 * watched by the task route's one poll loop (`runTask`, watch.ts), which polls `tasks/get` through
 * this driver at the server's `pollInterval`, with the same bounds, ends and abort as a 2026-07-28
 * task. Questions are not in the status: while the task is
 * `input_required` the server pushes `elicitation/create` (related-task `_meta`) on the stream of
 * a `tasks/result` request, which blocks until the task ends and then carries its result. So once a
 * task is seen input_required (or finished), exactly one `tasks/result` is kept open for it; the
 * pushes reach the attached legacy handler, whose question carries `origin.taskId`, and so the same
 * waitFor. A failed task (in this revision an `isError` result) becomes 'task_failed', a cancelled
 * one 'task_cancelled'.
 *
 * Invariants: every value from the server is checked and bounded (task id length, status enum,
 * statusMessage length, pollInterval clamped) before use; one driver per call or handle, nothing
 * kept across them; a tasks/result in flight is aborted when its task ends or is cancelled; a
 * tasks/list or tasks/cancel the server does not declare is refused before anything is sent.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { isRecord, linkedController, MAX_TIMER_DELAY } from '@waitfor/runtime';
import { BridgeError, toBridgeError } from '../bridgeError';
import type { ClientPort } from '../clientPort';
import type { RawMethod } from '../clientPort/port';
import { defaultBridgeLimits } from '../limits';
import type { TaskStatus } from '../types';
import { checkTaskId as checkBoundedTaskId, STATES, STATUS_MESSAGE } from './modern';
import type { TaskDriver } from './types';
import { boundedPoll, isTerminal } from './watch';

/** What a task-backed call brings to `start` (an era's CallJob fits). */
export interface TaskJob {
  readonly info: { readonly params: Record<string, unknown> };
  readonly options: { readonly signal?: AbortSignalLike | undefined };
}

/** Longest task id kept, in characters (echoed in every request): the bridge's default bound. */
export const TASK_ID_LIMIT = defaultBridgeLimits.taskId;
/** Most tasks/list pages read, and tasks kept from them. */
const LIST_PAGES = 10;
const LIST_TASKS = 1000;
/** The tools/list pages read to find whether a tool requires a task. */
const TOOL_PAGES = 10;

/** A task id from the server, checked within the default bound; throws 'invalid_params'. */
const checkTaskId = (value: unknown): string => checkBoundedTaskId(value, defaultBridgeLimits);

/** A Task object from the server (tasks/get, a CreateTaskResult's `task`), checked and bounded. */
export function parseTask(value: unknown, expected?: string): TaskStatus {
  if (!isRecord(value)) throw new BridgeError('invalid_params', 'A task must be an object');
  const taskId = checkTaskId(value['taskId']);
  if (expected !== undefined && taskId !== expected)
    throw new BridgeError('invalid_params', `tasks/get answered for another task (${taskId})`);
  const status = value['status'];
  if (typeof status !== 'string' || !STATES.includes(status))
    throw new BridgeError('invalid_params', 'A task status must be one of ' + STATES.join(', '));
  const checked: TaskStatus = { taskId, status: status as TaskStatus['status'] };
  const message = value['statusMessage'];
  if (typeof message === 'string') checked.statusMessage = message.slice(0, STATUS_MESSAGE);
  const poll = boundedPoll(value['pollInterval']);
  if (poll !== undefined) checked.pollInterval = poll;
  return checked;
}

/** The text of an isError result (its first text block), bounded, for a failed task's message. */
function failureText(result: Record<string, unknown> | undefined): string | undefined {
  const content = result?.['content'];
  if (!Array.isArray(content)) return undefined;
  const first = content.find((block) => isRecord(block) && typeof block['text'] === 'string');
  return first === undefined ? undefined : String(first.text).slice(0, STATUS_MESSAGE);
}

/** What a task's tasks/result came to: a result, or the JSON-RPC error the server sent instead. */
type Outcome = { result: Record<string, unknown> } | { error: BridgeError };

/** What the server's `capabilities.tasks` offers: a tasks/list, a tasks/cancel. */
const offers = (port: ClientPort, what: 'list' | 'cancel'): boolean => {
  const tasks = port.serverCapabilities()?.['tasks'];
  return isRecord(tasks) && tasks[what] !== undefined;
};

/** The 'invalid_options' of a method the server does not offer (nothing is sent). */
const notOffered = (method: string) =>
  new BridgeError('invalid_options', `The server does not offer ${method} (2025-11-25 tasks)`, {
    details: { method, revision: '2025-11-25' },
  });

/**
 * The 2025-11-25 driver on `port`: `status` also keeps the task's one tasks/result open once the
 * task needs it, and fills `result` / `error` of a finished task from it.
 */
export function legacyTaskDriver(port: ClientPort, timeout: number): TaskDriver {
  /** The tasks/result in flight per task, with the controller that ends it. */
  const receiving = new Map<string, { outcome: Promise<Outcome>; stop(): void }>();
  const send = async (
    method: RawMethod,
    params: Record<string, unknown>,
    signal?: AbortSignalLike,
  ) => {
    try {
      return await port.request(method, params, { signal, timeout });
    } catch (error) {
      throw toBridgeError(error, signal);
    }
  };
  /** The task's tasks/result: pushes arrive on its stream; it settles when the task ends. */
  const receive = (taskId: string) => {
    const open = receiving.get(taskId);
    if (open !== undefined) return open.outcome;
    const controller = linkedController();
    const outcome = port
      .request('tasks/result', { taskId }, { signal: controller.signal, timeout: MAX_TIMER_DELAY })
      .then(
        (result): Outcome => ({ result }),
        (error: unknown): Outcome => ({ error: toBridgeError(error, controller.signal) }),
      );
    receiving.set(taskId, { outcome, stop: () => controller.abort(undefined) });
    return outcome;
  };
  const stop = (taskId: string) => {
    receiving.get(taskId)?.stop();
    receiving.delete(taskId);
  };
  const finish = async (task: TaskStatus): Promise<TaskStatus> => {
    if (task.status === 'cancelled') return (stop(task.taskId), task);
    const outcome = await receive(task.taskId);
    receiving.delete(task.taskId);
    if ('error' in outcome) {
      const rpc = outcome.error.rpc;
      return {
        ...task,
        status: 'failed',
        error: rpc ?? { code: -32603, message: outcome.error.message },
      };
    }
    if (task.status === 'completed' && outcome.result['isError'] !== true)
      return { ...task, result: outcome.result };
    const message = failureText(outcome.result) ?? task.statusMessage ?? 'The task failed';
    return { ...task, status: 'failed', error: { code: -32603, message, data: outcome.result } };
  };
  const get: TaskDriver['get'] = async (taskId, signal) =>
    parseTask(await send('tasks/get', { taskId: checkTaskId(taskId) }, signal), taskId);
  return {
    // The created task carries no result, and its questions need a tasks/result: the watch polls.
    created: (value) => ({ taskId: parseTask(value).taskId, first: undefined }),
    get,
    status: async (taskId, signal) => {
      const task = await get(taskId, signal);
      if (isTerminal(task)) return finish(task);
      if (task.status === 'input_required') void receive(taskId);
      return task;
    },
    update: () =>
      Promise.reject(new BridgeError('invalid_options', '2025-11-25 tasks have no tasks/update')),
    cancel: async (taskId, signal) => {
      if (!offers(port, 'cancel')) throw notOffered('tasks/cancel');
      try {
        await send('tasks/cancel', { taskId: checkTaskId(taskId) }, signal);
      } finally {
        stop(taskId);
      }
    },
    list: (signal) => listTasks(port, send, signal),
  };
}

/** tasks/list, every page within LIST_PAGES and LIST_TASKS; 'invalid_options' where not offered. */
async function listTasks(
  port: ClientPort,
  send: (
    method: RawMethod,
    params: Record<string, unknown>,
    signal?: AbortSignalLike,
  ) => Promise<Record<string, unknown>>,
  signal: AbortSignalLike | undefined,
): Promise<TaskStatus[]> {
  if (!offers(port, 'list')) throw notOffered('tasks/list');
  const tasks: TaskStatus[] = [];
  let cursor: unknown;
  for (let page = 0; page < LIST_PAGES && tasks.length < LIST_TASKS; page++) {
    const listed = await send('tasks/list', cursor === undefined ? {} : { cursor }, signal);
    const entries = Array.isArray(listed['tasks']) ? listed['tasks'] : [];
    for (const entry of entries.slice(0, LIST_TASKS - tasks.length)) tasks.push(parseTask(entry));
    cursor = listed['nextCursor'];
    if (typeof cursor !== 'string') break;
  }
  return tasks;
}

/** How a tool takes a task (its tools/list `execution.taskSupport`; 'forbidden' when the server runs none). */
export type TaskSupport = 'required' | 'optional' | 'forbidden';

/** How the server runs tool `name` as a task: 'forbidden' unless it declares tasks for tools/call. */
export async function taskSupport(
  port: ClientPort,
  name: unknown,
  signal?: AbortSignalLike,
): Promise<TaskSupport> {
  const tasks = port.serverCapabilities()?.['tasks'];
  const requests = isRecord(tasks) ? tasks['requests'] : undefined;
  const tools = isRecord(requests) ? requests['tools'] : undefined;
  if (!isRecord(tools) || tools['call'] === undefined) return 'forbidden';
  let cursor: unknown;
  for (let page = 0; page < TOOL_PAGES; page++) {
    const params = typeof cursor === 'string' ? { cursor } : undefined;
    const listed = await port.list('tools/list', params, { signal });
    const found = (isRecord(listed) && Array.isArray(listed['tools']) ? listed['tools'] : []).find(
      (tool) => isRecord(tool) && tool['name'] === name,
    );
    if (found !== undefined) {
      const execution = found['execution'];
      const support = isRecord(execution) ? execution['taskSupport'] : undefined;
      return support === 'required' || support === 'optional' ? support : 'forbidden';
    }
    cursor = isRecord(listed) ? listed['nextCursor'] : undefined;
    if (typeof cursor !== 'string') return 'forbidden';
  }
  return 'forbidden';
}

/**
 * The task-augmented tools/call: the created task, checked, or the complete result of a server
 * that ran the call at once.
 */
export async function startTask(
  port: ClientPort,
  job: TaskJob,
  timeout: number,
): Promise<{ task: TaskStatus } | { result: Record<string, unknown> }> {
  const { signal } = job.options;
  let created: Record<string, unknown>;
  try {
    created = await port.request(
      'tools/call',
      { ...job.info.params, task: {} },
      { signal, timeout },
    );
  } catch (error) {
    throw toBridgeError(error, signal);
  }
  if (!isRecord(created['task'])) return { result: created };
  return { task: parseTask(created['task']) };
}
