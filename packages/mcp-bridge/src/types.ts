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

/** The result of a durable call: finished, or suspended until `resume`. */
export type DurableOutcome<T = Record<string, unknown>> =
  { status: 'complete'; result: T } | { status: 'suspended'; suspension: Suspension };

/** How a call ends: its result, or (durable, modern era) a suspension until `resume`. */
export type CallOutcome = DurableOutcome;
