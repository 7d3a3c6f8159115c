/**
 * `bridge.tasks`: task-backed calls held as handles, one API for both revisions. `start` runs a
 * tools/call as any bridge call (2026-07-28: questions before the task exists are asked as
 * input_required rounds; 2025-11-25: sent task-augmented when the tool allows a task) and resolves
 * once the server answered with a task, or with a complete result (a finished handle); `result()`
 * waits and asks as `callTool` does, through the one task loop (`runTask`).
 *
 * Invariants: a handle keeps the one driver it started with (a 2025-11-25 driver holds the task's
 * tasks/result, which its `cancel` ends); what a revision lacks (tasks/list in 2026-07-28; a
 * tasks/list or tasks/cancel a 2025-11-25 server does not declare) is 'invalid_options' with
 * `details.method`, and nothing is sent.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { BridgeError } from '../bridgeError';
import { runCall, taskSettings, waitForTask, type CallTarget } from '../calls';
import { checkNumbers, type CallOptions } from '../callOptions';
import { legacyTaskDriver } from './legacy';
import { modernTaskDriver } from './modern';
import type { TaskStatus } from '../types';
import type { BridgeTasks, TaskDriver, TaskHandle } from './types';

/** The task driver of `target`'s connection, for the revision its era speaks. */
function driverOf(target: CallTarget, options: CallOptions = {}): TaskDriver {
  const era = target.port.era();
  if (era === undefined) throw new BridgeError('invalid_options', 'Not connected');
  if (era === 'legacy') return legacyTaskDriver(target.port, checkNumbers(options).timeout);
  return modernTaskDriver(target.port, taskSettings(target, options).settings.limits);
}

/** A handle of a call that completed without a task. */
function finishedHandle(result: Record<string, unknown>): TaskHandle {
  const status: TaskStatus = { taskId: '', status: 'completed', result };
  return {
    taskId: '',
    result: async () => result,
    cancel: async () => undefined,
    status: async () => status,
  };
}

/** A handle of a running task; `result()` is watched once (a second call shares the first). */
function runningHandle(
  targetOf: () => CallTarget,
  params: Record<string, unknown>,
  options: CallOptions,
  task: { driver: TaskDriver; taskId: string; first: TaskStatus | undefined },
): TaskHandle {
  let waiting: Promise<Record<string, unknown>> | undefined;
  const { driver, taskId } = task;
  return {
    taskId,
    result: (resultOptions = {}) => {
      const signal = resultOptions.signal ?? options.signal;
      waiting ??= waitForTask(targetOf(), params, { ...options, signal }, task);
      return waiting;
    },
    cancel: () => driver.cancel(taskId),
    status: () => driver.get(taskId),
  };
}

/** `bridge.tasks` of the bridge whose target `targetOf` reads. */
export function bridgeTasks(targetOf: () => CallTarget): BridgeTasks {
  return {
    start: async (params, options = {}) => {
      const outcome = await runCall(
        targetOf,
        'tools/call',
        params as Record<string, unknown>,
        { ...options, durable: false },
        undefined,
        'handle',
      );
      const result = (outcome as { result: Record<string, unknown> }).result;
      if (result['resultType'] !== 'task') return finishedHandle(result);
      const driver = driverOf(targetOf(), options);
      const created = driver.created(result);
      return runningHandle(targetOf, params, options, { driver, ...created });
    },
    get: (taskId, options: { signal?: AbortSignalLike } = {}) =>
      driverOf(targetOf()).get(taskId, options.signal),
    cancel: (taskId, options: { signal?: AbortSignalLike } = {}) =>
      driverOf(targetOf()).cancel(taskId, options.signal),
    list: async (options: { signal?: AbortSignalLike } = {}) => {
      const driver = driverOf(targetOf());
      if (driver.list === undefined)
        throw new BridgeError(
          'invalid_options',
          'tasks/list is not part of the Tasks extension (2026-07-28)',
          { details: { method: 'tasks/list', revision: '2026-07-28' } },
        );
      return driver.list(options.signal);
    },
  };
}
