import type { Rule } from './check';
import { isRecord, isString, nonEmpty, parseRecord } from './check';
import { parseDateTime } from './dateTime';
import type { Request, RequestData } from './types';

// id and kind: non-empty strings; data: an object whose origin, if any, names a server (UIs and
// policies read it); expiresAt: an RFC 3339 date-time.
const requestRules: Record<string, Rule> = {
  id: [nonEmpty, true],
  kind: [nonEmpty, true],
  prompt: [isString, true],
  url: [isString],
  data: [
    (value) =>
      isRecord(value) &&
      (value.origin === undefined || isString((value.origin as RequestData['origin'])?.server)),
  ],
  expiresAt: [(value) => isString(value) && !isNaN(parseDateTime(value as string))],
};

/** Checks untrusted data (e.g. parsed JSON) and returns it as a Request, or throws `invalid_request`. */
export const parseRequest = (value: unknown): Request =>
  parseRecord(value, 'invalid_request', 'Request', requestRules) as unknown as Request;
