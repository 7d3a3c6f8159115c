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
      ? (nonEmpty(data.origin.server) || invalid('data.origin.server', data.origin.server)) &&
        // A task's question names its task: a string when present (UIs group by it).
        (data.origin.taskId === undefined ||
          isString(data.origin.taskId) ||
          invalid('data.origin.taskId', data.origin.taskId))
      : invalid('data.origin', data.origin)));

// An id is also a URL path segment (@waitfor/http's answer route), so it must be one that can be
// answered there: `.` and `..` are resolved away by URL parsing (encoded or not), a lone surrogate
// cannot be percent-encoded, and 512 UTF-16 units percent-encode to at most 4,608 bytes, inside
// the 8 KiB request line proxies and servers commonly allow. (A size budget keeps this one line.)
const requestChecks: Record<string, Check> = {
  id: (id) => nonEmpty(id) && id.length < 513 && !/^\.\.?$|\p{Cs}/u.test(id),
  kind: nonEmpty,
  prompt: isString,
  url: optional(isString),
  data: optional(checkData),
  expiresAt: optional((value) => isString(value) && !isNaN(parseDateTime(value))),
};

/**
 * Checks untrusted data (e.g. parsed JSON) and returns it as a Request, or throws `invalid_request`.
 * An `id` is a non-empty string of at most 512 characters, well-formed UTF-16, and not `.` or `..`:
 * every id accepted here can be answered over HTTP.
 */
export const parseRequest = (value: unknown): Request =>
  parseRecord(value, 'invalid_request', 'Request', requestChecks) as unknown as Request;
