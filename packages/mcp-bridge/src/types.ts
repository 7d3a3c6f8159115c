/**
 * The bridge's public data types, at the bottom of its import graph: what a call reports, what a
 * durable call hands back and `resume` takes. Plain data (a suspension is JSON), imported by every
 * layer above and importing nothing of the bridge but its protocol names.
 */
import type { Request } from '@waitfor/core';
import type { CallMethod } from './protocol';

/** One progress notification of a call, as the server sent it. */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** One embedded request of an input_required result. */
export interface InputRequest {
  method: string;
  params?: Record<string, unknown>;
}

/** Everything needed to finish a suspended call later. JSON-safe. */
export interface Suspension {
  version: 2;
  method: CallMethod;
  /** The original call params (without inputResponses/requestState). */
  params: Record<string, unknown>;
  /** The server's requestState of the pending round, byte-exact; absent when the server sent none. */
  requestState?: string;
  /** The inputRequests of the pending round, as the server sent them. */
  inputRequests: Record<string, InputRequest>;
  /**
   * The Requests a person must answer, one per elicitation inputRequest. Each names its
   * inputRequests key in `data.origin.inputKey` and who asks in `data.origin.server`.
   */
  requests: Request[];
  /** How many input_required rounds this call has seen so far. */
  round: number;
}

/**
 * A durable task-backed call waiting on a person: the task lives on the server, so this is only a
 * reference to it and the questions it has open. JSON-safe; resumable from any bridge whose server
 * identity is `server` (`resume`, with answers or empty to watch). A 2025-11-25 task's questions are
 * pushed to whoever reads its `tasks/result`, so its reference holds none: `resume` re-attaches and
 * asks them through that bridge's waitFor.
 */
export interface TaskSuspension {
  version: 1;
  kind: 'task';
  /**
   * The tasks revision the reference is for: absent for the Tasks extension (2026-07-28), whose
   * questions the reference carries; '2025-11-25' for the experimental tasks (no questions in it).
   */
  revision?: '2025-11-25';
  method: 'tools/call';
  /** The original call params. */
  params: Record<string, unknown>;
  /** The server identity of the bridge that suspended it (`serverId`); another bridge's is refused. */
  server: string;
  taskId: string;
  /** inputRequests keys already answered for this task: never asked again. */
  answered: string[];
  /** The task's open inputRequests (those not answered yet), as the server sent them. */
  inputRequests: Record<string, InputRequest>;
  /**
   * One Request per open elicitation key; `data.origin` names server, tool, taskId and inputKey.
   * sampling/roots keys are answered by the host's handlers, never suspended.
   */
  requests: Request[];
  /** Statuses that brought new keys so far (≥ 1), counted against `maxRounds`. */
  round: number;
  /** The server's last pollInterval in ms, bounded. */
  pollInterval?: number;
}

/** What a durable call can suspend with: a modern-era call's retry, or a task's reference. */
export type AnySuspension = Suspension | TaskSuspension;

/** The result of a durable call: finished, or suspended until `resume`. */
export type DurableOutcome<T = Record<string, unknown>> =
  | { status: 'complete'; result: T }
  | { status: 'suspended'; suspension: Suspension | TaskSuspension };

/** The status of a task (Tasks extension). */
export type TaskState = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the server last reported it, checked and bounded. */
export interface TaskStatus {
  taskId: string;
  status: TaskState;
  statusMessage?: string;
  /** The server's poll interval in ms, bounded to [50, 30 000]. */
  pollInterval?: number;
  /** input_required: the outstanding inputRequests (each key unique for the task's lifetime). */
  inputRequests?: Record<string, InputRequest>;
  /** completed: the final result of the call. */
  result?: Record<string, unknown>;
  /** failed: the JSON-RPC error the call failed with. */
  error?: { code: number; message: string; data?: unknown };
}

/** How a call ends: its result, or (durable, modern era) a suspension until `resume`. */
export type CallOutcome = DurableOutcome;
