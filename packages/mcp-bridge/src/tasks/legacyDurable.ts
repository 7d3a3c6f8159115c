/**
 * Durable 2025-11-25 task-backed calls. That revision delivers a task's questions as requests the
 * server pushes on the stream of a `tasks/result` (related-task `_meta`), to whoever reads it. So a
 * durable call watches its task with `tasks/get` alone and returns, once the task is
 * `input_required`, a reference (TaskSuspension, `revision: "2025-11-25"`) that holds no questions;
 * `resume` on any bridge to the same server identity re-attaches (tasks/get, then one tasks/result
 * whose pushed questions reach that bridge's waitFor) and returns the final result.
 *
 * Invariants: a durable call never opens `tasks/result` before it suspends, so no question is taken
 * off the server by a process that may not stay to answer it; a task that ends before it asks is
 * the call's outcome (its result; 'task_failed' / 'task_cancelled'); the watch has the task route's
 * bounds (pollInterval clamped, the caller's signal ends it).
 */
import type { AbortSignalLike } from '@waitfor/core';
import type { DurableOutcome } from '../types';
import { finalResult, type TaskRun } from './modern';
import { createTaskSuspension } from './suspension';
import { isTerminal, KeyBook, pollTask, type Watch } from './watch';

/** Watch a 2025-11-25 task with tasks/get until it asks (a reference) or ends (its outcome). */
export async function suspendPushedTask(
  run: TaskRun,
  params: Record<string, unknown>,
  server: string,
  signal: AbortSignalLike,
): Promise<DurableOutcome> {
  const { driver, settings, taskId } = run;
  const watch: Watch = {
    taskId,
    // tasks/get alone: the driver's `status` would open the task's tasks/result.
    poll: (pollSignal) => driver.get(taskId, pollSignal),
    book: new KeyBook(settings.limits),
    round: 0,
    maxRounds: run.maxRounds,
    signal,
  };
  const last = await pollTask(watch, run.first, (status) => status.status === 'input_required');
  // A finished task's status has no result in this revision: the driver reads it from tasks/result.
  if (isTerminal(last))
    return { status: 'complete', result: finalResult(await driver.status(taskId, signal)) };
  const suspension = createTaskSuspension({
    params,
    server,
    taskId,
    answered: [],
    open: new Map(),
    round: 1,
    origin: run.origin,
    pollInterval: last.pollInterval,
    limits: settings.limits,
    revision: '2025-11-25',
  });
  return { status: 'suspended', suspension };
}
