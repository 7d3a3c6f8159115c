import { isRecord } from '../check';
import { parseFormSchema } from '../form/parseFormSchema';
import { parseRequest } from '../parseRequest';
import type { Request } from '../types';
import { WaitforError, type WaitforErrorCode } from '../waitforError';
import type { SuspendedQuestion } from './answersFor';

/** A form Request: kind "input" with a restricted schema under `data.schema`. */
export const isForm = (request: Request): boolean =>
  request.kind === 'input' && request.data?.schema !== undefined;

const prefixed = (head: string, path: string | undefined): string =>
  path === undefined || path === '' ? head : head === '' ? path : `${head}.${path}`;

/**
 * Checks the Requests of one round, keyed by input key: at least one and at most `maxRequests`,
 * each a well-formed Request (a form's schema inside the restricted subset, parsed once and kept
 * as `form`) with an id no other one has. Throws WaitforError `code` (or `duplicate_request`)
 * whose path names the key, e.g. `requests.email.kind`.
 */
export function checkQuestions(
  value: unknown,
  maxRequests: number,
  code: WaitforErrorCode,
): SuspendedQuestion[] {
  const fail = (path: string, message: string, cause?: unknown): never => {
    throw new WaitforError(code, message, { path, cause });
  };
  if (!isRecord(value)) fail('requests', 'requests must be an object of Requests by input key');
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 0) fail('requests', 'requests must hold at least one Request');
  if (keys.length > maxRequests)
    fail('requests', `${keys.length} requests is more than the ${maxRequests} allowed`);
  const questions: SuspendedQuestion[] = [];
  const ids = new Set<string>();
  for (const key of keys) {
    const path = `requests.${key}`;
    let question: SuspendedQuestion;
    try {
      const request = parseRequest(record[key]);
      question = {
        key,
        request,
        form: isForm(request) ? parseFormSchema(request.data!.schema) : undefined,
      };
    } catch (error) {
      const inner = WaitforError.isInstance(error) ? error : undefined;
      const where = inner?.code === 'invalid_schema' ? 'data.schema' : '';
      return fail(
        prefixed(path, prefixed(where, inner?.path)),
        `${path}: ${(error as Error).message}`,
        error,
      );
    }
    if (ids.has(question.request.id)) {
      throw new WaitforError(
        'duplicate_request',
        `${path}: id ${question.request.id} is used twice`,
        { path: `${path}.id` },
      );
    }
    ids.add(question.request.id);
    questions.push(question);
  }
  return questions;
}

/** The Requests of checked questions by input key (null prototype). */
export function requestsOf(questions: readonly SuspendedQuestion[]): Record<string, Request> {
  const requests = Object.create(null) as Record<string, Request>;
  for (const { key, request } of questions) requests[key] = request;
  return requests;
}

/** `checkQuestions`, as the Requests by input key (a null-prototype copy). */
export const checkRequests = (
  value: unknown,
  maxRequests: number,
  code: WaitforErrorCode,
): Record<string, Request> => requestsOf(checkQuestions(value, maxRequests, code));
