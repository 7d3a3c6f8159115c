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
import {
  parseRequest,
  WaitforError,
  type Answer,
  type Request,
  type RequestOrigin,
} from '@waitfor/core';
import type { FormLimits } from '@waitfor/core/form';
import {
  parseSuspension as readSuspension,
  resumeRound,
  type AnswerMismatch,
  type RoundDriver,
  type SuspendedQuestion,
  type SuspensionFail,
} from '@waitfor/core/tools';
import { buildElicitationRequest, checkQuestion } from '../../askPerson';
import { BridgeError } from '../../bridgeError';
import { checkRequestState, type BridgeLimits } from '../../limits';
import { CALL_METHODS, type CallMethod } from '../../protocol';
import { answerToElicitResult, isRecord, requestOf } from '../../mapping';
import type { InputRequest, Suspension } from '../../types';
import { parseInputRequests } from './round';

/** The shape of suspensions this version writes and reads; older ones are refused (ask again). */
const VERSION = 2;

/** The inputRequests key a suspension's Request answers (checked by parseSuspension). */
export const keyOf = (request: Request): string => request.data?.origin?.['inputKey'] as string;

/** Equal JSON values, key order aside; walks `a` at most, which parseSuspension has bounded. */
const sameJson = (a: unknown, b: unknown): boolean =>
  a === b ||
  (typeof a === 'object' &&
    typeof b === 'object' &&
    a !== null &&
    b !== null &&
    Array.isArray(a) === Array.isArray(b) &&
    Object.keys(a).length === Object.keys(b).length &&
    Object.entries(a).every(
      ([key, value]) =>
        Object.hasOwn(b, key) && sameJson(value, (b as Record<string, unknown>)[key]),
    ));

/** True when `request` shows exactly what `params` ask (the Request the bridge builds from them). */
function shows(request: Request, params: Parameters<typeof requestOf>[0]): boolean {
  const built = requestOf(params);
  return (
    request.kind === built.kind &&
    request.prompt === built.prompt &&
    request.url === built.url &&
    sameJson(built.data?.schema, request.data?.schema)
  );
}

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

/**
 * The questions of a suspension: one Request per elicitation inputRequest, each naming its own
 * key and showing exactly its form (a bijection), each form parsed once within `limits`. Throws
 * through `fail`; a round the bridge suspends always asks someone (no Request: refused).
 */
export function matchRequests(
  inputRequests: Record<string, InputRequest>,
  requests: unknown,
  fail: SuspensionFail,
  limits: Partial<BridgeLimits> | undefined,
): SuspendedQuestion[] {
  if (!Array.isArray(requests)) return fail('requests', 'requests must be an array');
  // The elicitation inputRequests still unmatched, each with its params and form as checked.
  const keys = new Map<string, ReturnType<typeof checkQuestion>>();
  for (const [key, entry] of Object.entries(inputRequests))
    if (entry.method === 'elicitation/create')
      // Throws 'invalid_params' itself (a schema the spec forbids: core's error as `cause`).
      keys.set(key, checkQuestion(entry.params, limits?.form));
  const questions: SuspendedQuestion[] = [];
  const ids = new Set<string>();
  for (const item of requests) {
    const request = parseRequest(item);
    const key = keyOf(request);
    const question = keys.get(key);
    // One form per question: a Request that shows another than its inputRequest matches none.
    if (!keys.delete(key) || ids.has(request.id) || !shows(request, question!.params))
      fail('requests', `request ${request.id} matches no inputRequest`);
    ids.add(request.id);
    questions.push({ key, request, form: question!.schema });
  }
  if (keys.size) fail('requests', `no request for inputRequests ${[...keys.keys()]}`);
  if (!ids.size) fail('requests', 'no pending Request');
  return questions;
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

/** The ElicitResult to send for a checked Answer (an accepted form carries its checked value). */
export const responseOf = (question: SuspendedQuestion, answer: Answer) =>
  answer.ok && question.form === undefined ? { action: 'accept' } : answerToElicitResult(answer);

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

/** A WaitforError of the checks the engine leaves to a driver (a malformed Request). */
export const isCoreRefusal = (error: unknown): error is WaitforError =>
  WaitforError.isInstance(error) && error.code !== 'invalid_suspension';

/** The bridge's error for what the round engine refused. */
export function refusal(error: unknown, value: unknown): unknown {
  if (!WaitforError.isInstance(error)) return error;
  if (error.code === 'invalid_suspension')
    return new BridgeError('invalid_suspension', error.message, { cause: error.cause });
  if (error.code === 'answer_mismatch')
    return new BridgeError('answer_mismatch', 'Answers do not match the Requests', {
      details: { ...(error.cause as AnswerMismatch) },
    });
  if (error.code === 'invalid_answer') {
    const requests = (value as { requests: Request[] }).requests;
    const request = requests.find((item) => keyOf(item) === error.path)!;
    return new BridgeError('invalid_answer', `Invalid answer to ${request.id}`, {
      errors: error.errors,
      details: { requestId: request.id },
    });
  }
  return error;
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
