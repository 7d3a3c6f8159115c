/**
 * Durable suspension of a modern-era call: instead of holding the input_required loop in memory,
 * the bridge returns JSON-safe data — the pending Requests plus everything the retry needs — and
 * `resume` finishes the call later, from a fresh client or another process.
 *
 * Invariants: the suspension is plain JSON (it survives JSON.stringify/parse unchanged);
 * `requestState` is kept byte-exact; answers must match the pending Requests one to one, and an
 * invalid form answer is refused locally (nothing is sent).
 */
import type { Answer, Request, RequestOrigin } from '@waitfor/core';
import { buildElicitationRequest, settleAnswer } from '../../askPerson';
import { BridgeError } from '../../bridgeError';
import type { CallMethod } from '../../extension';
import { parseInputRequests, type InputRequest } from './resolveRound';

/** Everything needed to finish a suspended call later. JSON-safe. */
export interface Suspension {
  version: 1;
  method: CallMethod;
  /** The original call params (without inputResponses/requestState). */
  params: Record<string, unknown>;
  /** The server's requestState of the pending round, byte-exact; absent when the server sent none. */
  requestState?: string;
  /** The inputRequests of the pending round, as the server sent them. */
  inputRequests: Record<string, InputRequest>;
  /** The Requests a person must answer (one per elicitation inputRequest). */
  requests: Request[];
  /** Request id → inputRequests key. */
  keys: Record<string, string>;
  /** How many input_required rounds this call has seen so far. */
  round: number;
  serverName: string;
}

/** Build the suspension of a round. */
export function createSuspension(input: {
  method: CallMethod;
  params: Record<string, unknown>;
  requestState: string | undefined;
  inputRequests: Record<string, InputRequest>;
  round: number;
  origin: RequestOrigin;
}): Suspension {
  const requests: Request[] = [];
  const keys: Record<string, string> = {};
  for (const [key, entry] of Object.entries(input.inputRequests)) {
    if (entry.method !== 'elicitation/create') continue;
    const request = buildElicitationRequest(entry.params, { ...input.origin, inputKey: key });
    requests.push(request);
    keys[request.id] = key;
  }
  const suspension: Suspension = {
    version: 1,
    method: input.method,
    params: input.params,
    inputRequests: input.inputRequests,
    requests,
    keys,
    round: input.round,
    serverName: input.origin.server,
  };
  if (input.requestState !== undefined) suspension.requestState = input.requestState;
  return suspension;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const methods: readonly string[] = ['tools/call', 'prompts/get', 'resources/read'];

/** Check untrusted suspension data (e.g. read back from storage); throws 'invalid_params'. */
export function parseSuspension(value: unknown): Suspension {
  const fail = (message: string) =>
    new BridgeError('invalid_params', `Invalid suspension: ${message}`);
  if (!isRecord(value)) throw fail('not an object');
  if (value['version'] !== 1) throw fail('unknown version');
  if (typeof value['method'] !== 'string' || !methods.includes(value['method']))
    throw fail('bad method');
  if (!isRecord(value['params'])) throw fail('params must be an object');
  if (value['requestState'] !== undefined && typeof value['requestState'] !== 'string')
    throw fail('requestState must be a string');
  const inputRequests = parseInputRequests(value['inputRequests']);
  if (!Array.isArray(value['requests'])) throw fail('requests must be an array');
  if (!isRecord(value['keys'])) throw fail('keys must be an object');
  const keys = value['keys'] as Record<string, unknown>;
  const requests = value['requests'] as unknown[];
  for (const request of requests) {
    if (!isRecord(request) || typeof request['id'] !== 'string')
      throw fail('every request needs an id');
    const key = keys[request['id']];
    if (typeof key !== 'string' || inputRequests[key]?.method !== 'elicitation/create')
      throw fail(`request ${request['id']} has no elicitation key`);
  }
  if (typeof value['round'] !== 'number' || !Number.isInteger(value['round']) || value['round'] < 1)
    throw fail('round must be an integer ≥ 1');
  if (typeof value['serverName'] !== 'string') throw fail('serverName must be a string');
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
): Record<string, unknown> {
  if (!Array.isArray(answers))
    throw new BridgeError('answer_mismatch', 'answers must be an array of Answers');
  const byId = new Map<string, Answer>();
  const foreign: string[] = [];
  for (const answer of answers) {
    const id = isRecord(answer) && typeof answer['id'] === 'string' ? answer['id'] : undefined;
    if (
      id === undefined ||
      suspension.keys[id] === undefined ||
      byId.has(id) ||
      typeof answer.ok !== 'boolean'
    ) {
      foreign.push(String(id));
      continue;
    }
    byId.set(id, answer);
  }
  const missing = suspension.requests.map((request) => request.id).filter((id) => !byId.has(id));
  if (foreign.length > 0 || missing.length > 0) {
    throw new BridgeError('answer_mismatch', "The answers do not match the suspension's Requests", {
      details: { missing, foreign },
    });
  }
  const responses: Record<string, unknown> = {};
  for (const request of suspension.requests) {
    const key = suspension.keys[request.id] as string;
    const settled = settleAnswer(
      suspension.inputRequests[key]?.params,
      byId.get(request.id) as Answer,
    );
    if ('errors' in settled) {
      throw new BridgeError('invalid_answer', `The answer to ${request.id} does not fit its form`, {
        details: { requestId: request.id, errors: settled.errors },
      });
    }
    responses[key] = settled.result;
  }
  return responses;
}
