import type { Check } from './check';
import { isRecord, isString, nonEmpty, optional, parseRecord, reject } from './check';
import { parseDateTime } from './dateTime';
import type { Request } from './types';

const invalid = (path: string, field: unknown): never =>
  reject('invalid_request', 'Request', path, field);

// data.origin, when present, must name who asks: UIs show it and policies decide by it. Its
// errors name the exact field rather than all of `data`.
const checkData: Check = (data) =>
  isRecord(data) &&
  (data.origin === undefined ||
    (isRecord(data.origin)
      ? nonEmpty(data.origin.server) || invalid('data.origin.server', data.origin.server)
      : invalid('data.origin', data.origin)));

const requestChecks: Record<string, Check> = {
  id: nonEmpty,
  kind: nonEmpty,
  prompt: isString,
  url: optional(isString),
  data: optional(checkData),
  expiresAt: optional((value) => isString(value) && !isNaN(parseDateTime(value))),
};

/** Checks untrusted data (e.g. parsed JSON) and returns it as a Request, or throws `invalid_request`. */
export const parseRequest = (value: unknown): Request =>
  parseRecord(value, 'invalid_request', 'Request', requestChecks) as unknown as Request;
