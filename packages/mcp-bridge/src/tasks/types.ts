/**
 * The task surface of a bridge (Tasks extension 2026-07-28, and the 2025-11-25 experimental tasks):
 * what `bridge.tasks` offers and what each task driver implements. Types only.
 */
import type { AbortSignalLike } from '@waitfor/core';
import type { CallOptions } from '../callOptions';
import type { CallJob } from '../eras/era';
import type { TaskStatus } from '../types';

/** A task the host holds: wait for its result (asking its questions), cancel it, read its status. */
export interface TaskHandle {
  readonly taskId: string;
  /**
   * Waits for the task's result, asking its questions through waitFor as `callTool` does; rejects
   * with 'task_failed' / 'task_cancelled' when the task ends so. Once per handle: a second call
   * returns the same promise.
   */
  result(options?: { signal?: AbortSignalLike }): Promise<Record<string, unknown>>;
  /** tasks/cancel (cooperative: the server decides whether and when the task ends cancelled). */
  cancel(): Promise<void>;
  /** tasks/get, checked. */
  status(): Promise<TaskStatus>;
}

/** `bridge.tasks`: task-backed calls held as handles. */
export interface BridgeTasks {
  /**
   * tools/call; resolves once the server answered with a task (or with a complete result: a
   * finished handle). Questions before the task exists (input_required) are asked as by callTool.
   */
  start(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: CallOptions,
  ): Promise<TaskHandle>;
  /** tasks/get of any task of this server. */
  get(taskId: string, options?: { signal?: AbortSignalLike }): Promise<TaskStatus>;
  /** tasks/cancel of any task of this server. */
  cancel(taskId: string, options?: { signal?: AbortSignalLike }): Promise<void>;
  /** tasks/list, where the revision has it (2025-11-25); else 'invalid_options'. */
  list(options?: { signal?: AbortSignalLike }): Promise<TaskStatus[]>;
}

/** How one revision's tasks are driven on the wire (tasks/modern.ts; tasks/legacy.ts). */
export interface TaskDriver {
  /** tools/call: a task, or the complete result when the server answered without one. */
  start(job: CallJob): Promise<{ taskId: string } | { result: Record<string, unknown> }>;
  /** tasks/get (2025-11-25: + tasks/result to receive the questions pushed for the task). */
  status(taskId: string, signal?: AbortSignalLike): Promise<TaskStatus>;
  /** tasks/update with a (partial) map of responses by inputRequests key (2026-07-28 only). */
  update(
    taskId: string,
    responses: Record<string, unknown>,
    signal?: AbortSignalLike,
  ): Promise<void>;
  cancel(taskId: string, signal?: AbortSignalLike): Promise<void>;
  list?(signal?: AbortSignalLike): Promise<TaskStatus[]>;
}
