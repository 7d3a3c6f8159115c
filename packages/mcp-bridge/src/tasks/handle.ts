/**
 * `bridge.tasks`: task-backed calls held as handles. `start` runs a tools/call as any bridge call
 * (questions before the task exists are asked as input_required rounds) and resolves once the
 * server answered with a task, or with a complete result (a finished handle); `result()` waits and
 * asks as `callTool` does.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { linkedController } from '@waitfor/runtime';
import { BridgeError } from '../bridgeError';
import { runCall, taskSettings, type CallTarget } from '../calls';
import type { CallOptions } from '../callOptions';
import { taskOrigin } from './durable';
import { modernTaskDriver, parseTaskStatus, runTask } from './modern';
import type { TaskStatus } from '../types';
import type { BridgeTasks, TaskDriver, TaskHandle } from './types';

/** The task driver of `target`'s connection (the Tasks extension needs the modern era). */
function driverOf(target: CallTarget, options: CallOptions = {}): Omit<TaskDriver, 'start'> {
  if (target.port.era() !== 'modern')
    throw new BridgeError('invalid_options', 'Tasks (2026-07-28) need a modern-era connection');
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
  first: TaskStatus,
): TaskHandle {
  let waiting: Promise<Record<string, unknown>> | undefined;
  const { taskId } = first;
  return {
    taskId,
    result: (resultOptions = {}) => {
      waiting ??= (async () => {
        const target = targetOf();
        const { settings, maxRounds } = taskSettings(target, options);
        const scope = linkedController(resultOptions.signal ?? options.signal);
        const unfollow = target.bridge?.links.follow(scope);
        const driver = driverOf(target, options);
        const origin = taskOrigin(settings, params);
        try {
          return await runTask(
            { settings, maxRounds, driver, taskId, first, origin },
            scope.signal,
          );
        } finally {
          scope.dispose();
          unfollow?.();
        }
      })();
      return waiting;
    },
    cancel: () => driverOf(targetOf(), options).cancel(taskId),
    status: () => driverOf(targetOf(), options).status(taskId),
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
      const limits = taskSettings(targetOf(), options).settings.limits;
      return runningHandle(targetOf, params, options, parseTaskStatus(result, limits));
    },
    get: (taskId, options: { signal?: AbortSignalLike } = {}) =>
      driverOf(targetOf()).status(taskId, options.signal),
    cancel: (taskId, options: { signal?: AbortSignalLike } = {}) =>
      driverOf(targetOf()).cancel(taskId, options.signal),
    list: async (options: { signal?: AbortSignalLike } = {}) => {
      const driver = driverOf(targetOf());
      if (driver.list === undefined)
        throw new BridgeError(
          'invalid_options',
          'tasks/list is not part of the Tasks extension (2026-07-28)',
        );
      return driver.list(options.signal);
    },
  };
}
