/**
 * Task-backed calls of the Tasks extension (SEP-2663, protocol 2026-07-28): a tools/call answered
 * `resultType: "task"` is watched (tasks/get) until it ends, and its questions (`input_required`
 * statuses' inputRequests) are asked as ordinary Requests through the same waitFor, the round
 * engine's `askAll` per status, each answer sent at once with its own tasks/update (a partial map).
 *
 * Invariants: every status is checked and bounded before it is used (taskId, status, inputRequests,
 * result, error); a question whose key is withdrawn, or whose task ends, is aborted with a reason
 * the person is told (`TASK_ENDED` messages as the waitFor signal's reason); a failed task is
 * 'task_failed' (its JSON-RPC error as `rpc`), a cancelled one 'task_cancelled'; a call whose
 * caller aborts asks the server to cancel its task (best effort: the call has already ended).
 *
 * Deviations from the design brief, kept small: a TaskSuspension also carries `round` (the statuses
 * that brought new keys, as a modern suspension does) so `maxRounds` holds across resumes; and the
 * modern driver has no `start` of its own — a tools/call may first need input_required retries
 * before it becomes a task, so the era's own call loop (eras/modern/call.ts) starts it and hands
 * the task here (`taskOutcome`).
 */
import type { AbortSignalLike, RequestOrigin } from '@waitfor/core';
import { isRecord, linkedController, type ControllerLike } from '@waitfor/runtime';
import { askAll } from '@waitfor/core/tools';
import { askPerson, checkParsed, type CheckedQuestion } from '../askPerson';
import { BridgeError, toBridgeError } from '../bridgeError';
import { noWaitFor } from '../callOptions';
import { inboundRewrite } from '../extension';
import type { ClientPort } from '../clientPort';
import type { CallSettings } from '../callOptions';
import {
  answerHostRequest,
  assertServable,
  parseInputRequests,
  type RoundContext,
} from '../inputRound';
import type { BridgeLimits } from '../limits';
import type { InputRequest, TaskState, TaskStatus } from '../types';
import { listenTask } from './listen';
import type { TaskDriver } from './types';
import { boundedPoll, isTerminal, KeyBook, pollTask, type Watch } from './watch';

export const STATES: readonly string[] = [
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
];

/** Longest statusMessage kept, in characters (a UI line, not a document). */
export const STATUS_MESSAGE = 4096;

/** Check a task id from the server (or a host) within `limits.taskId`; throws 'invalid_params'. */
export function checkTaskId(value: unknown, limits: BridgeLimits): string {
  if (typeof value !== 'string' || value === '')
    throw new BridgeError('invalid_params', 'taskId must be a non-empty string');
  if (value.length > limits.taskId)
    throw new BridgeError(
      'invalid_params',
      `taskId is past the limit of ${limits.taskId} characters`,
    );
  return value;
}

/** A JSON-RPC error of a failed task, checked (a missing one is the server's internal error). */
function taskError(value: unknown, message: string | undefined): NonNullable<TaskStatus['error']> {
  const { code, message: text, data } = isRecord(value) ? value : {};
  return {
    code: typeof code === 'number' ? code : -32603,
    message: (typeof text === 'string' ? text : (message ?? 'The task failed')).slice(
      0,
      STATUS_MESSAGE,
    ),
    ...(data !== undefined && { data }),
  };
}

/** Check an untrusted task (a CreateTaskResult, tasks/get, notifications/tasks); throws 'invalid_params'. */
export function parseTaskStatus(value: unknown, limits: BridgeLimits, taskId?: string): TaskStatus {
  if (!isRecord(value)) throw new BridgeError('invalid_params', 'A task must be an object');
  const id = checkTaskId(value['taskId'], limits);
  if (taskId !== undefined && id !== taskId)
    throw new BridgeError('invalid_params', `Asked for task ${taskId}, got another`);
  const state = value['status'];
  if (typeof state !== 'string' || !STATES.includes(state))
    throw new BridgeError(
      'invalid_params',
      `Unknown task status ${JSON.stringify(state)?.slice(0, 100)}`,
    );
  const message = value['statusMessage'];
  const status: TaskStatus = { taskId: id, status: state as TaskState };
  if (typeof message === 'string') status.statusMessage = message.slice(0, STATUS_MESSAGE);
  const poll = boundedPoll(value['pollIntervalMs'] ?? value['pollInterval']);
  if (poll !== undefined) status.pollInterval = poll;
  if (state === 'input_required')
    status.inputRequests = parseInputRequests(value['inputRequests'], limits.inputRequests);
  if (state === 'completed') {
    if (!isRecord(value['result']))
      throw new BridgeError('invalid_params', 'A completed task must carry its result');
    status.result = value['result'];
  }
  if (state === 'failed') status.error = taskError(value['error'], status.statusMessage);
  return status;
}

/** The tasks/* requests of the Tasks extension on `port`, checked within `limits`. */
export function modernTaskDriver(port: ClientPort, limits: BridgeLimits): TaskDriver {
  const send = async (
    method: `tasks/${string}`,
    params: Record<string, unknown>,
    signal?: AbortSignalLike,
  ) => {
    try {
      return await port.request(method, params, { signal });
    } catch (error) {
      throw toBridgeError(error, signal);
    }
  };
  const status: TaskDriver['status'] = async (taskId, signal) =>
    parseTaskStatus(
      await send('tasks/get', { taskId: checkTaskId(taskId, limits) }, signal),
      limits,
      taskId,
    );
  return {
    created: (value) => {
      const first = parseTaskStatus(value, limits);
      return { taskId: first.taskId, first };
    },
    // A status carries everything here (a completed one its result): a watch's poll and a host's
    // read are the same request.
    status,
    get: status,
    update: async (taskId, responses, signal) =>
      void (await send('tasks/update', { taskId, inputResponses: responses }, signal)),
    listen: (taskId) => listenTask(port, taskId, (value) => parseTaskStatus(value, limits, taskId)),
    cancel: async (taskId, signal) =>
      void (await send('tasks/cancel', { taskId: checkTaskId(taskId, limits) }, signal)),
  };
}

/** What the person is told when a task's question ends without their answer. */
export const TASK_ENDED: Record<TaskState | 'withdrawn' | 'ended', string> = {
  ended: 'The call that asked this ended',
  withdrawn: 'The server no longer asks this question',
  working: 'The server no longer asks this question',
  input_required: 'The server no longer asks this question',
  completed: 'The task finished without this answer',
  failed: 'The task failed',
  cancelled: 'The task was cancelled',
};

/** The 'aborted' error a task's ended question is aborted with (the waitFor signal's reason). */
const endedReason = (taskId: string, why: keyof typeof TASK_ENDED) =>
  new BridgeError('aborted', `${TASK_ENDED[why]} (task ${taskId})`, {
    details: { taskId, reason: why },
  });

/** The questions of one task in flight: asked per status, answered one by one, ended by the task. */
export interface TaskQuestions {
  /** Check every fresh key (before anyone is asked), then ask them all at once. */
  ask(fresh: Record<string, InputRequest>): void;
  /** End the questions of `keys` (withdrawn), or all of them (`why`: the task's final status). */
  end(keys: readonly string[] | undefined, why: keyof typeof TASK_ENDED): void;
}

/** The context of a task's questions: the round's, for one task. */
export interface TaskAskContext {
  round: RoundContext;
  taskId: string;
  book: KeyBook;
  update: TaskDriver['update'];
  /** Where a failure goes (an answer or a tasks/update that failed): it ends the watch. */
  fail(error: unknown): void;
}

/** Check an inputRequest: an elicitation's question, or undefined for the host's handlers. */
const checkEntry = (
  key: string,
  entry: InputRequest,
  round: RoundContext,
): CheckedQuestion | undefined => {
  const params = assertServable(key, entry, round);
  return params && checkParsed(params, round.limits?.form);
};

/** One task's questions; each answer is sent at once with its own tasks/update. */
export function taskQuestions(context: TaskAskContext): TaskQuestions {
  const { round, taskId, book } = context;
  const open = new Map<string, ControllerLike>();
  const ended = new Set<string>();
  const answer = async (
    key: string,
    entry: InputRequest,
    checked: CheckedQuestion | undefined,
    signal: AbortSignalLike,
  ) => {
    const origin: RequestOrigin = { ...round.origin, taskId, inputKey: key };
    return checked !== undefined
      ? askPerson(checked, {
          ...round,
          waitFor: round.handlers.waitFor ?? noWaitFor,
          origin,
          signal,
          rewrite: inboundRewrite(round.extensions, entry.params ?? {}),
        })
      : answerHostRequest(entry, { ...round, origin, signal });
  };
  return {
    ask(fresh) {
      const entries = Object.entries(fresh);
      const checked = entries.map(([key, entry]) => checkEntry(key, entry, round));
      const asking = askAll(
        entries,
        async ([key, entry], question, index) => {
          const own = linkedController(question.signal);
          open.set(key, own);
          try {
            const response = await answer(key, entry, checked[index], own.signal);
            open.delete(key);
            await context.update(taskId, Object.fromEntries([[key, response]]), round.signal);
            book.answer(key);
          } catch (error) {
            // Ended by the task (withdrawn, finished): the person was told through the signal.
            if (!ended.has(key)) throw error;
          } finally {
            open.delete(key);
            own.dispose();
          }
        },
        round.signal,
      );
      asking.catch(context.fail);
    },
    end(keys, why) {
      for (const key of keys ?? [...open.keys()]) {
        const question = open.get(key);
        if (question === undefined) continue;
        ended.add(key);
        question.abort(endedReason(taskId, why));
      }
    },
  };
}

/** The final result of an ended task; throws 'task_failed' / 'task_cancelled'. */
export function finalResult(status: TaskStatus): Record<string, unknown> {
  if (status.status === 'completed') return status.result!;
  if (status.status === 'failed')
    throw new BridgeError('task_failed', `Task ${status.taskId} failed: ${status.error!.message}`, {
      rpc: status.error,
      lastResult: status,
    });
  const said = status.statusMessage === undefined ? '' : `: ${status.statusMessage}`;
  throw new BridgeError('task_cancelled', `Task ${status.taskId} was cancelled${said}`, {
    lastResult: status,
  });
}

/** The round context of a call's task questions. */
export function roundOf(
  settings: CallSettings,
  origin: RequestOrigin,
  signal: AbortSignalLike,
): RoundContext {
  return {
    handlers: settings,
    modes: settings.modes,
    maxAttempts: settings.maxAttempts,
    limits: settings.limits,
    hooks: settings.bridge?.hooks,
    extensions: settings.bridge?.settings.extensions,
    origin,
    signal,
  };
}

/** What watching one task needs: the call's settings, its task and who asks. */
export interface TaskRun {
  settings: CallSettings;
  maxRounds: number;
  driver: TaskDriver;
  taskId: string;
  /** The status already known (a CreateTaskResult), if any: else the first poll is sent at once. */
  first: TaskStatus | undefined;
  origin: RequestOrigin;
}

/**
 * Wait for a task and return its result, asking its questions as they come (interactive calls
 * and TaskHandle.result); ended by `signal`.
 */
export async function runTask(
  run: TaskRun,
  signal?: AbortSignalLike,
): Promise<Record<string, unknown>> {
  const { driver, taskId } = run;
  const scope = linkedController(signal);
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    scope.abort(error);
  };
  const book = new KeyBook(run.settings.limits);
  const questions = taskQuestions({
    round: roundOf(run.settings, run.origin, scope.signal),
    taskId,
    book,
    update: driver.update,
    fail,
  });
  const watch: Watch = {
    taskId,
    poll: (pollSignal) => driver.status(taskId, pollSignal),
    book,
    round: 0,
    maxRounds: run.maxRounds,
    signal: scope.signal,
    stream: driver.listen?.(taskId),
  };
  let last: TaskStatus;
  try {
    last = await pollTask(watch, run.first, (status, change) => {
      if (isTerminal(status)) questions.end(undefined, status.status);
      else questions.end(change.withdrawn, 'withdrawn');
      if (!isTerminal(status) && Object.keys(change.fresh).length > 0) questions.ask(change.fresh);
      return false;
    });
  } catch (error) {
    questions.end(undefined, 'ended');
    // The watch ended before the task did (the caller gave up, an answer failed, the server sent
    // what cannot be used): nobody follows it now, so the server is asked to stop it (best effort)
    // and nothing keeps asking the person for it.
    driver.cancel(taskId).catch(() => undefined);
    throw toBridgeError(failure === undefined ? error : failure.error, signal);
  } finally {
    watch.stream?.close();
    scope.dispose();
  }
  return finalResult(last);
}
