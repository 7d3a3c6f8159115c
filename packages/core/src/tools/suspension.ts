/**
 * Durable tool runs: instead of waiting, a run returns JSON-safe data — the pending Requests and
 * what the next run needs — and `resumeTool` finishes it later, possibly in another process.
 *
 * Invariants: a suspension survives JSON.stringify/parse unchanged; a stored one is untrusted and
 * checked whole before use; a resume hands the tool only Answers to the suspension's own Requests,
 * one each, and an invalid form answer is refused before the tool runs.
 */
import { isRecord } from '../check';
import { validateAnswerData } from '../form/validateFormAnswer';
import { parseAnswer } from '../parseAnswer';
import type { Answer, Request } from '../types';
import { WaitforError } from '../waitforError';
import { checkRequests, DEFAULT_MAX_REQUESTS, isForm } from './checkRequests';
import { jsonUnsafePath, type JsonValue } from './jsonSafe';

/** The shape of suspensions this version writes and reads; others are refused (run the tool again). */
const VERSION = 1;

/** Everything needed to finish a suspended tool run later. JSON-safe. */
export interface ToolSuspension {
  version: 1;
  /** The tool's args, as the run was started with them. */
  args: JsonValue;
  /** The state of the pending round, as the tool gave it; absent when it gave none. */
  state?: JsonValue;
  /** The Requests a person must answer, keyed by input key. */
  requests: Record<string, Request>;
  /** How many Pending rounds the run has seen so far. */
  round: number;
}

/** Builds the suspension of a round (args and state already checked JSON-safe). */
export function createSuspension(
  args: unknown,
  state: JsonValue | undefined,
  requests: Record<string, Request>,
  round: number,
): ToolSuspension {
  // A plain copy: a null-prototype object is JSON-safe but compares unlike what JSON.parse gives.
  const suspension: ToolSuspension = {
    version: VERSION,
    args: args as JsonValue,
    requests: { ...requests },
    round,
  };
  if (state !== undefined) suspension.state = state;
  return suspension;
}

const keys = ['version', 'args', 'state', 'requests', 'round'];

/**
 * Checks untrusted suspension data (e.g. read back from storage) and returns a copy; throws
 * WaitforError `invalid_suspension` whose path names the field (the underlying error as `cause`).
 */
export function parseToolSuspension(
  value: unknown,
  options: { maxRequests?: number } = {},
): ToolSuspension {
  const fail = (path: string, message: string): never => {
    throw new WaitforError('invalid_suspension', `Invalid suspension: ${message}`, { path });
  };
  if (!isRecord(value)) return fail('', 'not an object');
  for (const key of Object.keys(value)) if (!keys.includes(key)) fail(key, `${key} is unknown`);
  if (value.version !== VERSION)
    fail('version', `version ${String(value.version)} is not ${VERSION} (run the tool again)`);
  for (const key of ['args', 'state']) {
    const unsafe = jsonUnsafePath(value[key], key);
    if (unsafe !== undefined && !(key === 'state' && value.state === undefined))
      fail(unsafe, `${unsafe} is not JSON-safe`);
  }
  if (value.args === undefined) fail('args', 'args is missing');
  const round = value.round;
  if (!Number.isInteger(round) || (round as number) < 1)
    fail('round', 'round must be an integer ≥ 1');
  let requests: Record<string, Request>;
  try {
    requests = checkRequests(
      value.requests,
      options.maxRequests ?? DEFAULT_MAX_REQUESTS,
      'invalid_suspension',
    );
  } catch (error) {
    const inner = error as WaitforError;
    throw new WaitforError('invalid_suspension', `Invalid suspension: ${inner.message}`, {
      path: inner.path,
      cause: error,
    });
  }
  return createSuspension(
    value.args,
    value.state as JsonValue | undefined,
    requests,
    round as number,
  );
}

/** At most this many ids are listed in an answer_mismatch message. */
const LISTED = 10;

/**
 * The Answers for a suspension's Requests, keyed by input key (null prototype). Throws
 * `answer_mismatch` unless every Request has exactly one well-formed Answer and none is foreign,
 * and `invalid_answer` (path: the input key, cause: the per-field errors) for an accepted form
 * that fails its schema; the accepted form's Answer carries the checked value.
 */
export function answersFor(
  suspension: ToolSuspension,
  answers: readonly unknown[],
): Record<string, Answer> {
  const keyById = new Map<string, string>();
  for (const key of Object.keys(suspension.requests))
    keyById.set(suspension.requests[key]!.id, key);
  const byId = new Map<string, Answer>();
  const foreign: string[] = [];
  // Not an array: every Request is missing.
  for (const item of Array.isArray(answers) ? answers : []) {
    let answer: Answer | undefined;
    try {
      answer = parseAnswer(item);
    } catch {
      answer = undefined;
    }
    if (answer === undefined || !keyById.has(answer.id) || byId.has(answer.id)) {
      const id = (item as { id?: unknown } | null)?.id;
      foreign.push(typeof id === 'string' ? id : typeof id);
      continue;
    }
    byId.set(answer.id, answer);
  }
  const missing = [...keyById.keys()].filter((id) => !byId.has(id));
  if (foreign.length > 0 || missing.length > 0) {
    const list = (ids: string[]) => ids.slice(0, LISTED).join(', ') || 'none';
    throw new WaitforError(
      'answer_mismatch',
      `The answers do not match the Requests (missing: ${list(missing)}; foreign: ${list(foreign)})`,
    );
  }
  const byKey = Object.create(null) as Record<string, Answer>;
  for (const [id, key] of keyById) {
    const request = suspension.requests[key]!;
    const answer = byId.get(id)!;
    byKey[key] = answer;
    if (!answer.ok || !isForm(request)) continue;
    const checked = validateAnswerData(request.data!.schema, answer.data);
    if (!checked.ok) {
      throw new WaitforError('invalid_answer', `Invalid answer to ${id}`, {
        path: key,
        cause: checked.errors,
      });
    }
    byKey[key] = { id, ok: true, data: checked.value };
  }
  return byKey;
}
