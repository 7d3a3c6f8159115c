import { isRecord } from '../check';
import { parseFormSchema } from '../form/parseFormSchema';
import { parseRequest } from '../parseRequest';
import type { Request } from '../types';
import { WaitforError, type WaitforErrorCode } from '../waitforError';

/** Default cap on the Requests of one round. */
export const DEFAULT_MAX_REQUESTS = 32;

/** A form Request: kind "input" with a restricted schema under `data.schema`. */
export const isForm = (request: Request): boolean =>
  request.kind === 'input' && request.data?.schema !== undefined;

const prefixed = (head: string, path: string | undefined): string =>
  path === undefined || path === '' ? head : head === '' ? path : `${head}.${path}`;

/**
 * Checks the Requests of one round, keyed by input key: at least one and at most `maxRequests`,
 * each a well-formed Request (a form's schema inside the restricted subset) with an id no other
 * one has. Returns a null-prototype copy; throws WaitforError `code` (or `duplicate_request`)
 * whose path names the key, e.g. `requests.email.kind`.
 */
export function checkRequests(
  value: unknown,
  maxRequests: number,
  code: WaitforErrorCode,
): Record<string, Request> {
  const fail = (path: string, message: string, cause?: unknown): never => {
    throw new WaitforError(code, message, { path, cause });
  };
  if (!isRecord(value)) fail('requests', 'requests must be an object of Requests by input key');
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 0) fail('requests', 'requests must hold at least one Request');
  if (keys.length > maxRequests)
    fail('requests', `${keys.length} requests is more than the ${maxRequests} allowed`);
  const requests: Record<string, Request> = Object.create(null) as Record<string, Request>;
  const ids = new Set<string>();
  for (const key of keys) {
    const path = `requests.${key}`;
    let request: Request;
    try {
      request = parseRequest(record[key]);
      if (isForm(request)) parseFormSchema(request.data!.schema);
    } catch (error) {
      const inner = WaitforError.isInstance(error) ? error : undefined;
      const where = inner?.code === 'invalid_schema' ? 'data.schema' : '';
      return fail(
        prefixed(path, prefixed(where, inner?.path)),
        `${path}: ${(error as Error).message}`,
        error,
      );
    }
    if (ids.has(request.id)) {
      throw new WaitforError('duplicate_request', `${path}: id ${request.id} is used twice`, {
        path: `${path}.id`,
      });
    }
    ids.add(request.id);
    requests[key] = request;
  }
  return requests;
}
