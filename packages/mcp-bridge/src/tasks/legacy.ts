/**
 * The 2025-11-25 experimental tasks driver (the v1 SDK's `experimental/tasks`, spec 2025-11-25).
 *
 * A tools/call augmented with `task: {}` is answered with a CreateTaskResult; the bridge then polls
 * `tasks/get` at the server's `pollInterval`. Questions are not in the status: while the task is
 * `input_required` the server pushes `elicitation/create` (related-task `_meta`) on the stream of
 * a `tasks/result` request, which blocks until the task ends and then carries its result. So once a
 * task is seen input_required (or finished), exactly one `tasks/result` is kept open for it; the
 * pushes reach the attached legacy handler, whose question carries `origin.taskId`, and so the same
 * waitFor. A failed task (in this revision an `isError` result) becomes 'task_failed', a cancelled
 * one 'task_cancelled'.
 *
 * Invariants: every value from the server is checked and bounded (task id length, status enum,
 * statusMessage length, pollInterval clamped) before use; one driver per call, nothing kept across
 * calls; a tasks/result in flight is aborted when its task ends or the caller gives up.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { isAborted, isRecord, linkedController, MAX_TIMER_DELAY, schedule } from '@waitfor/runtime';
import { BridgeError, toBridgeError } from '../bridgeError';
import type { ClientPort } from '../clientPort';
import type { RawMethod } from '../clientPort/port';
import { defaultBridgeLimits } from '../limits';
import type { TaskStatus } from '../types';
import { checkTaskId as checkBoundedTaskId, STATES, STATUS_MESSAGE } from './modern';
import type { TaskDriver } from './types';
import { boundedPoll, DEFAULT_POLL, isTerminal } from './watch';

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
  return {
    start: (job) => startTask(port, job, timeout),
    status: async (taskId, signal) => {
      const task = parseTask(
        await send('tasks/get', { taskId: checkTaskId(taskId) }, signal),
        taskId,
      );
      if (isTerminal(task)) return finish(task);
      if (task.status === 'input_required') void receive(taskId);
      return task;
    },
    update: () =>
      Promise.reject(new BridgeError('invalid_options', '2025-11-25 tasks have no tasks/update')),
    cancel: async (taskId, signal) => {
      try {
        await send('tasks/cancel', { taskId: checkTaskId(taskId) }, signal);
      } finally {
        stop(taskId);
      }
    },
    list: async (signal) => {
      const tasks: TaskStatus[] = [];
      let cursor: unknown;
      for (let page = 0; page < LIST_PAGES && tasks.length < LIST_TASKS; page++) {
        const listed = await send('tasks/list', cursor === undefined ? {} : { cursor }, signal);
        const entries = Array.isArray(listed['tasks']) ? listed['tasks'] : [];
        for (const entry of entries.slice(0, LIST_TASKS - tasks.length))
          tasks.push(parseTask(entry));
        cursor = listed['nextCursor'];
        if (typeof cursor !== 'string') break;
      }
      return tasks;
    },
  };
}

/** Whether the server requires a task for tool `name` (its tools/list `execution.taskSupport`). */
export async function requiresTask(port: ClientPort, name: unknown, signal?: AbortSignalLike) {
  const tasks = port.serverCapabilities()?.['tasks'];
  const requests = isRecord(tasks) ? tasks['requests'] : undefined;
  const tools = isRecord(requests) ? requests['tools'] : undefined;
  if (!isRecord(tools) || tools['call'] === undefined) return false;
  let cursor: unknown;
  for (let page = 0; page < TOOL_PAGES; page++) {
    const params = typeof cursor === 'string' ? { cursor } : undefined;
    const listed = await port.list('tools/list', params, { signal });
    const found = (isRecord(listed) && Array.isArray(listed['tools']) ? listed['tools'] : []).find(
      (tool) => isRecord(tool) && tool['name'] === name,
    );
    if (found !== undefined) {
      const execution = found['execution'];
      return isRecord(execution) && execution['taskSupport'] === 'required';
    }
    cursor = isRecord(listed) ? listed['nextCursor'] : undefined;
    if (typeof cursor !== 'string') return false;
  }
  return false;
}

/** The task-augmented tools/call: a task id, or the complete result of a server that ran it at once. */
async function startTask(port: ClientPort, job: TaskJob, timeout: number) {
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
  return { taskId: parseTask(created['task']).taskId };
}

/** `delay` ms; rejects with 'aborted' when `signal` aborts first. */
function pause(delay: number, signal?: AbortSignalLike) {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      stopTimer();
      reject(toBridgeError(signal?.reason, signal));
    };
    const stopTimer = schedule(delay, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    if (isAborted(signal)) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Wait for `taskId` and return its result (its questions arrive as pushes meanwhile); a failed task
 * throws 'task_failed', a cancelled one 'task_cancelled'. A caller that gives up (`signal`) cancels
 * the task (best effort) and gets 'aborted'.
 */
export async function awaitTask(
  driver: TaskDriver,
  taskId: string,
  signal?: AbortSignalLike,
): Promise<Record<string, unknown>> {
  try {
    for (;;) {
      const task = await driver.status(taskId, signal);
      if (task.status === 'completed') return task.result ?? {};
      if (task.status === 'failed')
        throw new BridgeError('task_failed', `Task ${taskId} failed: ${task.error?.message}`, {
          ...(task.error !== undefined && { rpc: task.error }),
          details: { taskId },
        });
      if (task.status === 'cancelled')
        throw new BridgeError(
          'task_cancelled',
          task.statusMessage ?? `Task ${taskId} was cancelled`,
          {
            details: { taskId },
          },
        );
      await pause(task.pollInterval ?? DEFAULT_POLL, signal);
    }
  } catch (error) {
    // A task that did not end by itself (the caller gave up, the server sent what cannot be used)
    // is cancelled, so nothing keeps asking the person for it.
    const ended = BridgeError.isInstance(error) && /^task_/.test(error.code);
    if (!ended) await driver.cancel(taskId).catch(() => undefined);
    throw error;
  }
}
