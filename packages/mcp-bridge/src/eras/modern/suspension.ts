/**
 * Durable suspension of a modern-era call: instead of holding the input_required loop in memory,
 * the bridge returns JSON-safe data — the pending Requests plus everything the retry needs — and
 * `resume` finishes the call later, from a fresh client or another process.
 *
 * Invariants: the suspension is plain JSON (it survives JSON.stringify/parse unchanged);
 * `requestState` is kept byte-exact; answers must match the pending Requests one to one, and an
 * invalid form answer is refused locally (nothing is sent); a retry carries only responses built
 * from those Answers and the requestState the server sent (params smuggling their own are refused);
 * each Request shows its inputRequest exactly (kind, prompt, url, schema), so the answer is checked
 * against the very form the person saw — a suspension whose two copies disagree is refused.
 */
import type { Answer, Request, RequestOrigin } from '@waitfor/core';
import type { FormLimits } from '@waitfor/core/form';
import {
  parseSuspension as readSuspension,
  resumeRound,
  type RoundDriver,
  type SuspendedQuestion,
  type SuspensionFail,
} from '@waitfor/core/tools';
import { buildElicitationRequest } from '../../askPerson';
import { BridgeError } from '../../bridgeError';
import { checkRequestState, type BridgeLimits } from '../../limits';
import { CALL_METHODS, type CallMethod } from '../../protocol';
import { isRecord } from '../../mapping';
import type { InputRequest, Suspension } from '../../types';
import { parseInputRequests } from '../../inputRound';
import { isCoreRefusal, matchRequests, refusal, responseOf } from '../../suspensionQuestions';

/** The shape of suspensions this version writes and reads; older ones are refused (ask again). */
const VERSION = 2;

/** Build the suspension of a round. */
export function createSuspension(input: {
  method: CallMethod;
  params: Record<string, unknown>;
  requestState: string | undefined;
  inputRequests: Record<string, InputRequest>;
  round: number;
  origin: RequestOrigin;
  limits?: Partial<FormLimits>;
}): Suspension {
  const { method, params, requestState, inputRequests, round } = input;
  const requests: Request[] = [];
  for (const [key, entry] of Object.entries(inputRequests))
    if (entry.method === 'elicitation/create')
      requests.push(
        buildElicitationRequest(entry.params, { ...input.origin, inputKey: key }, input.limits),
      );
  return {
    version: VERSION,
    method,
    params,
    inputRequests,
    requests,
    round,
    ...(requestState !== undefined && { requestState }),
  };
}

/** Reads the fields of a modern-era suspension and its questions, each form parsed once within `limits`. */
function readCall(
  value: Record<string, unknown>,
  fail: SuspensionFail,
  limits: Partial<BridgeLimits> | undefined,
): { own: Suspension; questions: SuspendedQuestion[] } {
  const { method, params, requestState, requests } = value;
  if (!CALL_METHODS.includes(method as string)) fail('method', 'bad method');
  if (!isRecord(params)) return fail('params', 'params must be an object');
  // The retry's answers and state come only from the Answers and the server's requestState: params
  // carrying their own would send answers nobody gave, or a forged state.
  if ('inputResponses' in params || 'requestState' in params)
    fail('params', 'params must not carry inputResponses or requestState');
  checkRequestState(requestState, limits?.requestState);
  const inputRequests = parseInputRequests(value['inputRequests'], limits?.inputRequests);
  const questions = matchRequests(inputRequests, requests, fail, limits);
  return { own: value as unknown as Suspension, questions };
}

/** A suspension's call as resumed: the checked suspension and its elicitation responses. */
export interface ResumedResponses {
  suspension: Suspension;
  /** The ElicitResults by inputRequests key. */
  responses: Record<string, unknown>;
}

/**
 * The modern era as a driver of the round engine: what its suspension looks like (read within
 * `limits`) and how Answers go back (as the ElicitResults of the retry).
 */
function callDriver(limits?: Partial<BridgeLimits>): RoundDriver<Suspension, ResumedResponses> {
  return {
    suspension: {
      version: VERSION,
      otherwise: 'call again',
      read(value, fail) {
        try {
          return readCall(value, fail, limits);
        } catch (error) {
          // Every refusal of a suspension is one code: what the bridge's own checks said is kept.
          if (!BridgeError.isInstance(error) && !isCoreRefusal(error)) throw error;
          return fail('', error.message, error.cause ?? error);
        }
      },
    },
    send: ({ own, questions }, answers) => ({
      suspension: own,
      responses: Object.fromEntries(
        questions.map((question) => [question.key, responseOf(question, answers[question.key]!)]),
      ),
    }),
  };
}

/**
 * Check untrusted suspension data (e.g. read back from storage), within `limits` when given
 * (`resume` passes the call's); throws 'invalid_suspension' (the underlying error, e.g. a form
 * schema the spec forbids, as `cause`).
 */
export function parseSuspension(value: unknown, limits?: Partial<BridgeLimits>): Suspension {
  try {
    return readSuspension(value, callDriver(limits).suspension).own;
  } catch (error) {
    throw refusal(error, value);
  }
}

/**
 * Reads a suspension once and builds the elicitation responses of its retry from `answers`, keyed
 * by inputRequests key (the round engine's `resumeRound`). Throws 'invalid_suspension' for the
 * suspension, 'answer_mismatch' unless every Request has exactly one Answer and none is foreign,
 * and 'invalid_answer' (with per-field errors) when an accepted form fails its schema.
 */
export function resumeResponses(
  value: unknown,
  answers: readonly Answer[],
  limits?: Partial<BridgeLimits>,
): ResumedResponses {
  try {
    return resumeRound(callDriver(limits), value, answers);
  } catch (error) {
    throw refusal(error, value);
  }
}
