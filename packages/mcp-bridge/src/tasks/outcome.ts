/**
 * Where a bridge call meets a task (a tools/call answered `resultType: "task"`): wait for it
 * (interactive), watch it durably (a TaskSuspension once it asks), or hand it back (a handle).
 */
import type { AbortSignalLike, RequestOrigin } from '@waitfor/core';
import { BridgeError } from '../bridgeError';
import { serverIdOf } from '../bridgeState';
import type { CallJob } from '../eras/era';
import type { CallOutcome } from '../types';
import { watchDurable } from './durable';
import { modernTaskDriver, parseTaskStatus, runTask, type TaskRun } from './modern';

/** The outcome of a call whose server answered with a task (`raw`: its CreateTaskResult, unchecked). */
export async function taskOutcome(
  job: CallJob,
  raw: unknown,
  origin: RequestOrigin,
  signal: AbortSignalLike,
): Promise<CallOutcome> {
  const { settings, info } = job;
  // Only tools/call may be task-augmented: a task for another request is an invalid response.
  if (info.method !== 'tools/call')
    throw new BridgeError('invalid_params', `${info.method} was answered with a task`, {
      lastResult: raw,
    });
  const first = parseTaskStatus(raw, settings.limits);
  if (job.taskMode === 'handle')
    return { status: 'complete', result: { ...first, resultType: 'task' } };
  const run: TaskRun = {
    settings,
    maxRounds: job.maxRounds,
    driver: modernTaskDriver(settings.port, settings.limits),
    taskId: first.taskId,
    first,
    origin,
  };
  if (!job.durable) return { status: 'complete', result: await runTask(run, signal) };
  const start = { params: info.params, answered: [], open: {}, reference: [], round: 0 };
  return watchDurable(run, start, serverIdOf(settings.port, settings.serverId), signal);
}
