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
import { parseRequest, type Answer, type Request, type RequestOrigin } from '@waitfor/core';
import { buildElicitationRequest, checkQuestion, settleAnswer } from '../../askPerson';
import { BridgeError, messageOf } from '../../bridgeError';
import type { FormLimits } from '@waitfor/core/form';
import { checkRequestState, type BridgeLimits } from '../../limits';
import { CALL_METHODS, type CallMethod } from '../../protocol';
import { isRecord, requestOf } from '../../mapping';
import type { InputRequest, Suspension } from '../../types';
import { parseInputRequests } from './round';

/** The shape of suspensions this version writes and reads; older ones are refused (ask again). */
const VERSION = 2;

/** The inputRequests key a suspension's Request answers (checked by parseSuspension). */
const keyOf = (request: Request): string => request.data?.origin?.['inputKey'] as string;

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
 * Check untrusted suspension data (e.g. read back from storage), within `limits` when given
 * (`resume` passes the call's); throws 'invalid_params' (the underlying error, e.g. a form schema
 * the spec forbids, as `cause`).
 */
export function parseSuspension(value: unknown, limits?: Partial<BridgeLimits>): Suspension {
  const fail = (message: string, cause?: unknown) =>
    new BridgeError('invalid_params', `Invalid suspension: ${message}`, { cause });
  if (!isRecord(value)) throw fail('not an object');
  const { version, method, params, requestState, requests, round } = value;
  if (version !== VERSION) throw fail(`version ${String(version)} is not ${VERSION} (call again)`);
  if (!CALL_METHODS.includes(method as string)) throw fail('bad method');
  if (!isRecord(params)) throw fail('params must be an object');
  // The retry's answers and state come only from the Answers and the server's requestState: params
  // carrying their own would send answers nobody gave, or a forged state.
  if ('inputResponses' in params || 'requestState' in params)
    throw fail('params must not carry inputResponses or requestState');
  checkRequestState(requestState, limits?.requestState, 'Invalid suspension: ');
  const inputRequests = parseInputRequests(value['inputRequests'], limits?.inputRequests);
  if (!Array.isArray(requests)) throw fail('requests must be an array');
  // One Request per elicitation inputRequest, each naming its own key: a bijection.
  // The elicitation inputRequests still unmatched, each with its params as checked.
  const keys = new Map<string, ReturnType<typeof checkQuestion>['params']>();
  for (const [key, entry] of Object.entries(inputRequests))
    if (entry.method === 'elicitation/create')
      // Throws 'invalid_params' itself (a schema the spec forbids: core's error as `cause`).
      keys.set(key, checkQuestion(entry.params, limits?.form).params);
  const ids = new Set<string>();
  for (const item of requests) {
    let request: Request;
    try {
      request = parseRequest(item);
    } catch (error) {
      throw fail(messageOf(error), error);
    }
    const params = keys.get(keyOf(request));
    // One form per question: a Request that shows another than its inputRequest matches none.
    if (!keys.delete(keyOf(request)) || ids.has(request.id) || !shows(request, params!))
      throw fail(`request ${request.id} matches no inputRequest`);
    ids.add(request.id);
  }
  if (keys.size) throw fail(`no request for inputRequests ${[...keys]}`);
  // A round the bridge suspends always asks someone: without a Request, nothing was answered.
  if (!ids.size) throw fail('no pending Request');
  if (!Number.isInteger(round) || (round as number) < 1) throw fail('round must be an integer ≥ 1');
  return value as unknown as Suspension;
}

/**
 * The elicitation responses for a suspension's Requests, keyed by inputRequests key.
 * Throws 'answer_mismatch' unless every Request has exactly one Answer and no Answer is foreign,
 * and 'invalid_answer' (with per-field errors) when an accepted form fails its schema.
 */
export function elicitationResponses(
  suspension: Suspension,
  answers: readonly Answer[],
  limits?: Partial<BridgeLimits>,
): Record<string, unknown> {
  const pending = new Set(suspension.requests.map((request) => request.id));
  const byId = new Map<unknown, Answer>();
  const foreign: string[] = [];
  // Not an array: every Request is missing.
  for (const answer of Array.isArray(answers) ? answers : []) {
    const id = typeof answer?.id === 'string' ? answer.id : undefined;
    if (!pending.has(id!) || byId.has(id) || typeof answer.ok !== 'boolean')
      foreign.push(String(id));
    else byId.set(id, answer);
  }
  const missing = [...pending].filter((id) => !byId.has(id));
  if (foreign.length || missing.length)
    throw new BridgeError('answer_mismatch', 'Answers do not match the Requests', {
      details: { missing, foreign },
    });
  return Object.fromEntries(
    suspension.requests.map((request) => {
      const key = keyOf(request);
      const settled = settleAnswer(
        suspension.inputRequests[key]?.params,
        byId.get(request.id)!,
        limits?.form,
      );
      if ('errors' in settled)
        throw new BridgeError('invalid_answer', `Invalid answer to ${request.id}`, {
          errors: settled.errors,
          details: { requestId: request.id },
        });
      return [key, settled.result];
    }),
  );
}
