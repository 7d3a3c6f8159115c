/**
 * The task surface of a bridge (Tasks extension 2026-07-28, and the 2025-11-25 experimental tasks):
 * what `bridge.tasks` offers and what each task driver implements. Types only.
 */
import type { AbortSignalLike } from '@waitfor/core';
import type { CallOptions } from '../callOptions';
import type { TaskStatus } from '../types';
import type { TaskStream } from './listen';

/** A task the host holds: wait for its result (asking its questions), cancel it, read its status. */
export interface TaskHandle {
  /** The server's task id ('' for a call the server completed without a task). */
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
  /** tasks/get of any task of this server (2025-11-25: a finished task's status has no result). */
  get(taskId: string, options?: { signal?: AbortSignalLike }): Promise<TaskStatus>;
  /** tasks/cancel of any task of this server; 'invalid_options' where the server offers none. */
  cancel(taskId: string, options?: { signal?: AbortSignalLike }): Promise<void>;
  /**
   * tasks/list, where the revision has it and the server offers it (2025-11-25 with
   * `capabilities.tasks.list`); else 'invalid_options' (`details.method`), nothing sent.
   */
  list(options?: { signal?: AbortSignalLike }): Promise<TaskStatus[]>;
}

/** How one revision's tasks are driven on the wire (tasks/modern.ts; tasks/legacy.ts). */
export interface TaskDriver {
  /**
   * A task-backed tools/call's answer (`resultType: "task"`): its task id, and the status a watch
   * starts from (2025-11-25: none, so the first poll goes out at once and opens its tasks/result).
   */
  created(value: Record<string, unknown>): { taskId: string; first: TaskStatus | undefined };
  /** tasks/get as a watch polls it (2025-11-25: + tasks/result, on which its questions arrive). */
  status(taskId: string, signal?: AbortSignalLike): Promise<TaskStatus>;
  /** tasks/get alone, checked: what a host reads (2025-11-25: a finished task's has no result). */
  get(taskId: string, signal?: AbortSignalLike): Promise<TaskStatus>;
  /** tasks/update with a (partial) map of responses by inputRequests key (2026-07-28 only). */
  update(
    taskId: string,
    responses: Record<string, unknown>,
    signal?: AbortSignalLike,
  ): Promise<void>;
  /** tasks/cancel; 'invalid_options' where the server offers none (nothing sent). */
  cancel(taskId: string, signal?: AbortSignalLike): Promise<void>;
  /** tasks/list, where the revision has it (2025-11-25); 'invalid_options' where not offered. */
  list?(signal?: AbortSignalLike): Promise<TaskStatus[]>;
  /** The task's status stream, where the revision has one (2026-07-28: subscriptions/listen). */
  listen?(taskId: string): TaskStream;
}
