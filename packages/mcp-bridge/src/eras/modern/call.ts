/**
 * The bridge's own input_required loop (modern era) for tools/call, prompts/get and resources/read.
 *
 * Invariants (protocol 2026-07-28, `input_required` results):
 * - every leg is a new SDK request, so a new JSON-RPC id;
 * - `requestState` is echoed byte-exact and omitted when the server sent none;
 * - `inputResponses` is keyed exactly like `inputRequests` and omitted on state-only rounds;
 * - each retry carries the original params, never another call's state (nothing is shared);
 * - a missing `resultType` is complete, an unknown one is a typed error;
 * - at most `maxRounds` retries, then 'rounds_exceeded' with the last result.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { abortedError, BridgeError, toBridgeError } from '../../bridgeError';
import { isAborted, linkedController, MAX_TIMER_DELAY } from '@waitfor/runtime';
import { progressOptions } from '../../callOptions';
import { callOrigin } from '../../extension';
import type { CallOutcome } from '../../types';
import type { CallJob, LoopStart } from '../era';
import {
  assertServable,
  parseInputRequests,
  resolveRound,
  type RoundContext,
} from '../../inputRound';
import { createSuspension } from './suspension';
import { checkRequestState } from '../../limits';
import { taskOutcome } from '../../tasks/outcome';

/** The outcome of a loop: the final result, or (durable mode) a suspension. */
type LoopOutcome = CallOutcome;

/** The params of a retry: the original params, this round's responses and the state, byte-exact. */
export function retryParams(
  params: Record<string, unknown>,
  responses: Record<string, unknown>,
  requestState: string | undefined,
): Record<string, unknown> {
  const retry: Record<string, unknown> = { ...params };
  if (Object.keys(responses).length > 0) retry['inputResponses'] = responses;
  if (requestState !== undefined) retry['requestState'] = requestState;
  return retry;
}

/** An `input_required` result (its requestState checked and bounded). */
type InputRequired = { inputRequests?: unknown; requestState?: string };

/** What a leg's result is: complete, a task (Tasks extension), or input_required; throws on others. */
function kindOf(result: unknown, stateLimit: number): 'complete' | 'task' | 'input_required' {
  if (typeof result !== 'object' || result === null)
    throw new BridgeError('invalid_params', 'Result is not an object');
  const record = result as Record<string, unknown>;
  const resultType = record['resultType'];
  if (resultType === undefined || resultType === 'complete') return 'complete';
  if (resultType === 'task') return 'task';
  if (resultType !== 'input_required') {
    throw new BridgeError(
      'unknown_result_type',
      `Unknown resultType ${JSON.stringify(resultType)}`,
      { lastResult: result },
    );
  }
  // Echoed byte-exact with every retry (and stored in a suspension): bounded before it is kept.
  checkRequestState(record['requestState'], stateLimit);
  return 'input_required';
}

/** Drive one call to completion (or suspension), ended by `signal`. */
async function runInputRequiredLoop(
  job: CallJob,
  start: LoopStart,
  signal: AbortSignalLike,
): Promise<LoopOutcome> {
  const { settings } = job;
  const { method } = job.info;
  const { limits } = settings;
  // Who answers each round's questions, and as whom they are asked.
  const context: RoundContext = {
    handlers: settings,
    modes: settings.modes,
    maxAttempts: settings.maxAttempts,
    limits,
    hooks: settings.bridge?.hooks,
    extensions: settings.bridge?.settings.extensions,
    origin: callOrigin(job.info),
    signal,
  };
  let send =
    start.retry === undefined
      ? start.params
      : retryParams(start.params, start.retry.responses, start.retry.requestState);
  let round = start.round;
  // The same options for every leg: a tools/call's retries send its first leg's Mcp-Param-* headers.
  const legOptions = {
    ...progressOptions(job.options),
    signal,
    // Per leg (the person's time between legs is never counted). The SDK times each leg with one
    // timer, which fires at once past MAX_TIMER_DELAY: a longer budget (Infinity: none) waits as
    // long as one timer can.
    timeout: Math.min(job.timeout, MAX_TIMER_DELAY),
    raw: true,
    legs: {},
  };
  for (;;) {
    if (isAborted(signal)) throw abortedError();
    let result: unknown;
    try {
      result = await settings.port.call(method, send, legOptions);
    } catch (error) {
      throw toBridgeError(error, signal);
    }
    const kind = kindOf(result, limits.requestState);
    if (kind === 'complete')
      return { status: 'complete', result: result as Record<string, unknown> };
    // A call that first asked (input_required, retried above) may still become a task.
    if (kind === 'task') return taskOutcome(job, result, context.origin, signal);
    const required = result as InputRequired;
    round += 1;
    if (round > job.maxRounds) {
      throw new BridgeError(
        'rounds_exceeded',
        `${method} still required input after ${job.maxRounds} rounds`,
        { lastResult: result },
      );
    }
    const inputRequests = parseInputRequests(required.inputRequests, limits.inputRequests);
    if (job.durable) {
      for (const [key, entry] of Object.entries(inputRequests)) assertServable(key, entry, context);
      const suspension = createSuspension({
        method,
        params: start.params,
        requestState: required.requestState,
        inputRequests,
        round,
        origin: context.origin,
        limits: limits.form,
      });
      if (suspension.requests.length > 0) return { status: 'suspended', suspension };
    }
    // State-only rounds (no inputRequests) are retried at once, still counted against the cap.
    const responses = await resolveRound(inputRequests, context);
    send = retryParams(start.params, responses, required.requestState);
  }
}

/** Run a modern call: the bridge's own loop, ended by the caller's signal or by detaching the bridge. */
export async function call(job: CallJob): Promise<LoopOutcome> {
  const { settings } = job;
  const scope = linkedController(job.options.signal);
  const unfollow = settings.bridge?.links.follow(scope);
  try {
    return await runInputRequiredLoop(
      job,
      (await job.start?.(job)) ?? { params: job.info.params, round: 0 },
      scope.signal,
    );
  } finally {
    scope.dispose();
    unfollow?.();
  }
}
