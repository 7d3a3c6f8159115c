/**
 * A task's durable reference (TaskSuspension): built from a task's open keys, read back from
 * storage as untrusted data, and matched with the person's Answers for one tasks/update.
 *
 * Invariants: the reference is plain JSON; everything read back is bounded (taskId, keys
 * remembered, open inputRequests, server identity) and checked as own keys; each Request shows
 * its inputRequest exactly, names its key and its task; `answered` and the open keys are disjoint;
 * the Answers given may be any subset of the Requests (none: only watch), but an Answer matching no
 * Request is refused ('answer_mismatch') and an invalid form ('invalid_answer'): nothing is sent. A
 * 2025-11-25 reference (`revision`) holds no keys and no Requests: that revision pushes a task's
 * questions to whoever reads its tasks/result, so nothing can be answered through the reference.
 */
import type { Answer, RequestOrigin } from '@waitfor/core';
import {
  answersFor,
  parseSuspension as readSuspension,
  type SuspendedQuestion,
  type SuspensionFail,
} from '@waitfor/core/tools';
import { isRecord } from '@waitfor/runtime';
import { buildElicitationRequest } from '../askPerson';
import { BridgeError } from '../bridgeError';
import type { BridgeLimits } from '../limits';
import { parseInputRequests } from '../inputRound';
import { isCoreRefusal, matchRequests, refusal, responseOf } from '../suspensionQuestions';
import type { InputRequest, TaskSuspension } from '../types';
import { boundedPoll } from './watch';

/** Longest server identity kept in a reference, in characters. */
const SERVER_ID = 2048;

/** The reference of a task with open keys. */
export function createTaskSuspension(input: {
  params: Record<string, unknown>;
  server: string;
  taskId: string;
  answered: string[];
  open: ReadonlyMap<string, InputRequest>;
  round: number;
  origin: RequestOrigin;
  pollInterval: number | undefined;
  limits: BridgeLimits;
  revision?: TaskSuspension['revision'];
}): TaskSuspension {
  const inputRequests = Object.fromEntries(input.open);
  const requests = [...input.open]
    .filter(([, entry]) => entry.method === 'elicitation/create')
    .map(([key, entry]) =>
      buildElicitationRequest(
        entry.params,
        { ...input.origin, taskId: input.taskId, inputKey: key },
        input.limits.form,
      ),
    );
  return {
    version: 1,
    kind: 'task',
    ...(input.revision !== undefined && { revision: input.revision }),
    method: 'tools/call',
    params: input.params,
    server: input.server,
    taskId: input.taskId,
    answered: input.answered,
    inputRequests,
    requests,
    round: input.round,
    ...(input.pollInterval !== undefined && { pollInterval: input.pollInterval }),
  };
}

/** The `answered` keys of a reference, checked within `limits.taskKeys`. */
function readAnswered(value: unknown, limits: BridgeLimits, fail: SuspensionFail): string[] {
  if (!Array.isArray(value)) return fail('answered', 'answered must be an array');
  if (value.length > limits.taskKeys) fail('answered', `more than ${limits.taskKeys} keys`);
  for (const key of value) if (typeof key !== 'string') fail('answered', 'keys must be strings');
  return value as string[];
}

/** Read a reference's own fields and questions (the engine has checked version and round). */
function readTask(
  value: Record<string, unknown>,
  fail: SuspensionFail,
  limits: BridgeLimits,
): { own: TaskSuspension; questions: SuspendedQuestion[] } {
  const { kind, revision, method, params, server, taskId, pollInterval } = value;
  if (kind !== 'task') fail('kind', 'not a task reference');
  if (revision !== undefined && revision !== '2025-11-25')
    fail('revision', 'revision must be absent (2026-07-28) or "2025-11-25"');
  if (method !== 'tools/call') fail('method', 'bad method');
  if (!isRecord(params)) return fail('params', 'params must be an object');
  if (typeof server !== 'string' || server === '' || server.length > SERVER_ID)
    fail('server', 'server must be a non-empty string');
  if (typeof taskId !== 'string' || taskId === '' || taskId.length > limits.taskId)
    fail('taskId', `taskId must be a string of at most ${limits.taskId} characters`);
  if (pollInterval !== undefined && boundedPoll(pollInterval) !== pollInterval)
    fail('pollInterval', 'pollInterval out of bounds');
  const answered = readAnswered(value['answered'], limits, fail);
  if (revision === '2025-11-25') return readPushed(value, answered, fail);
  const inputRequests = parseInputRequests(value['inputRequests'], limits.taskOpenKeys);
  const done = new Set(answered);
  for (const key of Object.keys(inputRequests))
    if (done.has(key)) fail('answered', `key ${key} is both answered and open`);
  const questions = matchRequests(inputRequests, value['requests'], fail, limits);
  for (const { request } of questions)
    if (request.data?.origin?.taskId !== taskId)
      fail('requests', `request ${request.id} names another task`);
  return { own: value as unknown as TaskSuspension, questions };
}

/**
 * The rest of a 2025-11-25 reference: that revision pushes a task's questions on its tasks/result,
 * so the reference holds none (no keys, no Requests) and nothing can be answered through it.
 */
function readPushed(
  value: Record<string, unknown>,
  answered: string[],
  fail: SuspensionFail,
): { own: TaskSuspension; questions: SuspendedQuestion[] } {
  const { inputRequests, requests } = value;
  if (answered.length > 0) fail('answered', 'a 2025-11-25 reference has no keys');
  if (!isRecord(inputRequests) || Object.keys(inputRequests).length > 0)
    fail('inputRequests', 'a 2025-11-25 reference has no inputRequests');
  if (!Array.isArray(requests) || requests.length > 0)
    fail('requests', 'a 2025-11-25 reference has no Requests');
  return { own: value as unknown as TaskSuspension, questions: [] };
}

/** The engine's shape of a task reference. */
const shapeOf = (limits: BridgeLimits) => ({
  version: 1,
  otherwise: 'call the tool again',
  read(value: Record<string, unknown>, fail: SuspensionFail) {
    try {
      return readTask(value, fail, limits);
    } catch (error) {
      // Every refusal of a reference is one code: what the bridge's own checks said is kept.
      if (!BridgeError.isInstance(error) && !isCoreRefusal(error)) throw error;
      return fail('', error.message, error.cause ?? error);
    }
  },
});

/** Whether untrusted data claims to be a task reference (then it is read as one). */
export const isTaskReference = (value: unknown): boolean =>
  isRecord(value) && value['kind'] === 'task';

/** Check an untrusted task reference within `limits`; throws 'invalid_suspension'. */
export function parseTaskSuspension(value: unknown, limits: BridgeLimits): TaskSuspension {
  return readReference(value, limits).own;
}

function readReference(value: unknown, limits: BridgeLimits) {
  try {
    return readSuspension(value, shapeOf(limits));
  } catch (error) {
    throw refusal(error, value);
  }
}

/** A reference read with the person's Answers: the responses to send, by inputRequests key. */
export interface TaskResume {
  suspension: TaskSuspension;
  responses: Record<string, unknown>;
}

/**
 * Read a reference once and build the responses of `answers` (any subset of its Requests):
 * 'invalid_suspension', 'answer_mismatch' (an Answer matching no Request, or repeated),
 * 'invalid_answer' (an accepted form failing its schema). Nothing is sent by this.
 */
export function taskResponses(
  value: unknown,
  answers: readonly Answer[],
  limits: BridgeLimits,
): TaskResume {
  const { own, questions } = readReference(value, limits);
  if (!Array.isArray(answers)) throw new BridgeError('answer_mismatch', 'answers must be an array');
  const given = new Set(answers.map((answer) => (answer as { id?: unknown } | null)?.id));
  // The questions answered now; answersFor refuses an Answer that matches none of them.
  const answeredNow = questions.filter((question) => given.has(question.request.id));
  try {
    const byKey = answersFor(answeredNow, answers);
    return {
      suspension: own,
      responses: Object.fromEntries(
        answeredNow.map((question) => [question.key, responseOf(question, byKey[question.key]!)]),
      ),
    };
  } catch (error) {
    throw refusal(error, value);
  }
}
