/**
 * The one interface both eras implement, chosen once per connection (`eraFor`). Each era keeps its
 * jobs in files of the same names:
 *
 * - `handler.ts`: how a question reaching the registered handler is scoped and attributed;
 * - `options.ts`: what a call's options may be in this era (checked before anything is sent);
 * - `call.ts`: how one bridge call runs on the wire;
 * - `resume.ts` (modern era only): how a suspended call is checked and started again.
 */
import type { Answer } from '@waitfor/core';
import type { BridgeState } from '../bridgeState';
import type { CallOptions, CallSettings } from '../callOptions';
import type { InboundContext } from '../clientPort';
import type { BridgeLimits } from '../limits';
import type { CallMethod } from '../protocol';
import type { PushedQuestion, QuestionOptions } from '../questionLinks';
import type { CallOutcome } from '../types';
import type { CallJob, LoopStart } from '../callJob';

export type { CallJob, LoopStart } from '../callJob';

/** A suspended call, checked with its answers: what to call again, and where its loop starts. */
export interface ResumedCall {
  readonly method: CallMethod;
  readonly params: Record<string, unknown>;
  readonly start: (job: CallJob) => Promise<LoopStart>;
}

/** What an era does; `eras/legacy` and `eras/modern` each export one. */
export interface Era {
  /** handler.ts: scope a question that reached the registered handler. */
  question(
    bridge: BridgeState,
    context: InboundContext,
    params: Record<string, unknown>,
  ): PushedQuestion;
  /** options.ts: refuse options this era cannot honour; returns a call's own question options. */
  checkCall(
    settings: CallSettings,
    options: CallOptions,
    durable: boolean,
  ): QuestionOptions | undefined;
  /**
   * options.ts: whether any call may suspend (durable) and be resumed as a retry; a legacy-era
   * tools/call may still be durable as a 2025-11-25 task (its era refuses any other).
   */
  readonly durable: boolean;
  /** call.ts: link the call before any extension runs; returns its end. */
  beginCall?(job: CallJob): (() => void) | undefined;
  /** call.ts: run the call on the wire (the innermost step of the extensions' `aroundCall`). */
  call(job: CallJob): Promise<unknown>;
  /** call.ts: what `call` resolved to for `job`, as a call's outcome. */
  outcome(value: unknown, job: CallJob): CallOutcome;
  /**
   * resume.ts: check untrusted suspension data and the person's answers (nothing is sent when they
   * do not fit); absent when the era's calls never suspend.
   */
  resume?(suspension: unknown, answers: readonly Answer[], limits: BridgeLimits): ResumedCall;
}
