/**
 * The host as RECEIVER of 2025-11-25 task-augmented `elicitation/create`: a server that may wait
 * hours for a person sends the question with `task: {ttl}`; the bridge (where the host opts in with
 * `taskElicitation`) answers at once with a CreateTaskResult, asks the question through waitFor as
 * any other, and serves the server's `tasks/get`, `tasks/result` (blocks until the person
 * answered), `tasks/list` and `tasks/cancel` (ends the question; the person is told) for it. No
 * request is held open while the person takes their time: the server polls `tasks/get`.
 *
 * Invariants: the server is untrusted. At most `maxTasks` tasks are kept (a finished one is dropped
 * first to make room, else the question is refused -32602); each lives at most `maxTtl` ms (a
 * longer or missing ttl is cut to it and the CreateTaskResult says so), then its question ends as
 * expired and the task is forgotten; a task id the receiver did not create is "not found" (-32602).
 * Everything ends with `close` (detach).
 */
import { createRequestId, type AbortSignalLike } from '@waitfor/core';
import { createController, isRecord, schedule, type ControllerLike } from '@waitfor/runtime';
import { BridgeError } from '../bridgeError';

/** What a host opts in with (`AttachOptions.taskElicitation`). */
export interface TaskElicitationOptions {
  /** Most tasks kept at once (open and finished). Default 100. */
  maxTasks?: number;
  /** Longest life of a task in ms, whatever ttl the server asks. Default 86 400 000 (a day). */
  maxTtl?: number;
  /** The pollInterval the server is told, in ms. Default 5 000. */
  pollInterval?: number;
}

/** The capabilities a receiving host declares (2025-11-25 `tasks`). */
export const receiverCapabilities = () => ({
  tasks: { list: {}, cancel: {}, requests: { elicitation: { create: {} } } },
});

type Status = 'working' | 'completed' | 'failed' | 'cancelled';

/** One task the receiver keeps. */
interface ReceivedTask {
  readonly taskId: string;
  status: Status;
  statusMessage?: string;
  readonly ttl: number;
  readonly createdAt: string;
  lastUpdatedAt: string;
  /** Settles once the task is no longer working: the ElicitResult, or the refusal it failed with. */
  readonly done: Promise<{ result: Record<string, unknown> } | { error: unknown }>;
  /** Ends the question (cancel, expiry, close). */
  readonly controller: ControllerLike;
  readonly forget: () => void;
}

/** The question behind a task: asked with `signal` (aborted when the task ends without an answer). */
export type AskTask = (taskId: string, signal: AbortSignalLike) => Promise<object>;

/** The receiver of one attachment. */
export interface TaskReceiver {
  /** A task-augmented elicitation/create: the CreateTaskResult to answer at once. */
  create(params: Record<string, unknown>, ask: AskTask): Record<string, unknown>;
  /** The server's requests for the tasks. */
  handle(
    method: string,
    params: Record<string, unknown>,
    signal?: AbortSignalLike,
  ): Promise<unknown>;
  /** End every task (detach): open questions end, the person told. */
  close(): void;
}

/** JSON-RPC refusal (the SDKs send it back with this code). */
const refusal = (code: number, message: string) => Object.assign(new Error(message), { code });
const notFound = () => refusal(-32602, 'Task not found');
const RELATED = 'io.modelcontextprotocol/related-task';
const TERMINAL = new Set<Status>(['completed', 'failed', 'cancelled']);

/** Checked receiver options with defaults; throws 'invalid_options'. */
function settingsOf(options: TaskElicitationOptions) {
  const settings = {
    maxTasks: options.maxTasks ?? 100,
    maxTtl: options.maxTtl ?? 86_400_000,
    pollInterval: options.pollInterval ?? 5_000,
  };
  for (const [key, value] of Object.entries(settings))
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
      throw new BridgeError('invalid_options', `taskElicitation.${key} must be a whole number ≥ 1`);
  return settings;
}

/** The wire form of a task (tasks/get, tasks/list, CreateTaskResult). */
const wire = (task: ReceivedTask, pollInterval: number) => ({
  taskId: task.taskId,
  status: task.status,
  ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
  ttl: task.ttl,
  createdAt: task.createdAt,
  lastUpdatedAt: task.lastUpdatedAt,
  pollInterval,
});

/** A fresh receiver for one attachment. */
export function createTaskReceiver(options: TaskElicitationOptions = {}): TaskReceiver {
  const { maxTasks, maxTtl, pollInterval } = settingsOf(options);
  const tasks = new Map<string, ReceivedTask>();
  /** The finished tasks still kept, oldest first: what makes room, found without a scan. */
  const finished = new Set<ReceivedTask>();
  const end = (task: ReceivedTask, status: Status, message: string) => {
    if (TERMINAL.has(task.status)) return;
    task.status = status;
    task.statusMessage = message;
    task.lastUpdatedAt = new Date().toISOString();
    finished.add(task);
  };
  const lookup = (params: Record<string, unknown>) => {
    const taskId = params['taskId'];
    const task = typeof taskId === 'string' ? tasks.get(taskId) : undefined;
    if (task === undefined) throw notFound();
    return task;
  };
  /**
   * Room for one more task: a finished one (the oldest) is dropped first, else it is refused. Each
   * costs the same however many are kept, so a flood is refused at a constant price per question.
   */
  const makeRoom = () => {
    if (tasks.size < maxTasks) return;
    const [oldest] = finished;
    if (oldest !== undefined) return oldest.forget();
    throw refusal(-32602, `Too many task-augmented elicitations open (limit ${maxTasks})`);
  };

  const create: TaskReceiver['create'] = (params, ask) => {
    makeRoom();
    const requested = isRecord(params['task']) ? params['task']['ttl'] : undefined;
    const ttl =
      typeof requested === 'number' && requested >= 1 ? Math.min(requested, maxTtl) : maxTtl;
    const taskId = createRequestId('task');
    const controller = createController();
    const now = new Date().toISOString();
    const task: ReceivedTask = {
      taskId,
      status: 'working',
      ttl,
      createdAt: now,
      lastUpdatedAt: now,
      controller,
      done: ask(taskId, controller.signal).then(
        (result) => {
          if (controller.signal.aborted) return { error: controller.signal.reason };
          end(task, 'completed', 'Answered');
          return { result: result as Record<string, unknown> };
        },
        (error: unknown) => {
          end(task, 'failed', error instanceof Error ? error.message : 'The question failed');
          return { error };
        },
      ),
      forget: () => {
        stopTimer();
        tasks.delete(taskId);
        finished.delete(task);
        controller.abort(new BridgeError('aborted', 'The question expired'));
      },
    };
    // Its life is bounded: past the ttl the question ends (expired) and the task is forgotten.
    const stopTimer = schedule(ttl, () => {
      end(task, 'cancelled', 'Expired');
      task.forget();
    });
    tasks.set(taskId, task);
    return { task: wire(task, pollInterval) };
  };

  const result = async (task: ReceivedTask) => {
    const outcome = await task.done;
    if ('error' in outcome) {
      const { code, message } = isRecord(outcome.error) ? outcome.error : {};
      if (task.status === 'cancelled') throw refusal(-32602, `Task ${task.status}`);
      throw refusal(typeof code === 'number' ? code : -32603, String(message ?? 'Task failed'));
    }
    const meta = isRecord(outcome.result['_meta']) ? outcome.result['_meta'] : {};
    return { ...outcome.result, _meta: { ...meta, [RELATED]: { taskId: task.taskId } } };
  };

  return {
    create,
    handle: async (method, params) => {
      if (method === 'tasks/list')
        return { tasks: [...tasks.values()].map((task) => wire(task, pollInterval)) };
      const task = lookup(params);
      if (method === 'tasks/get') return wire(task, pollInterval);
      if (method === 'tasks/result') return result(task);
      // tasks/cancel
      if (TERMINAL.has(task.status))
        throw refusal(-32602, `Cannot cancel task in terminal status: ${task.status}`);
      end(task, 'cancelled', 'The server cancelled the question');
      task.controller.abort(new BridgeError('aborted', 'The server withdrew this question'));
      return wire(task, pollInterval);
    },
    close: () => {
      for (const task of [...tasks.values()]) {
        end(task, 'cancelled', 'The host went away');
        task.forget();
      }
    },
  };
}
