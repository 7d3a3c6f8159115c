/**
 * What every suspension of a person's questions shares, whichever route suspended it (a modern-era
 * call's retry, a task's reference): its Requests matched one to one with the elicitation
 * inputRequests they show, the responses the checked Answers make, and the bridge's errors for
 * what the round engine refused.
 */
import { parseRequest, WaitforError, type Answer, type Request } from '@waitfor/core';
import type { AnswerMismatch, SuspendedQuestion, SuspensionFail } from '@waitfor/core/tools';
import { checkQuestion } from './askPerson';
import { BridgeError } from './bridgeError';
import type { BridgeLimits } from './limits';
import { answerToElicitResult, requestOf } from './mapping';
import type { InputRequest } from './types';

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

/** The ElicitResult to send for a checked Answer (an accepted form carries its checked value). */
export const responseOf = (question: SuspendedQuestion, answer: Answer) =>
  answer.ok && question.form === undefined ? { action: 'accept' } : answerToElicitResult(answer);

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
