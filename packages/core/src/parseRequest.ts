import type { Check } from './check';
import { fail, isRecord, isString, nonEmpty, optional, parseRecord, reject } from './check';
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

/**
 * The longest Request id, in UTF-16 code units. An id travels in a URL path (@waitfor/http's answer
 * route): percent-encoded, 512 units are at most 4,608 bytes, inside the 8 KiB request line proxies
 * and servers commonly allow.
 */
const maxIdLength = 512;

const badId = (why: string): never => fail('invalid_request', 'id', `Request.id ${why}`);

// An id is also a URL path segment: `.` and `..` are resolved away by URL parsing (encoded or not),
// and a lone surrogate cannot be percent-encoded, so such an id could never be answered over HTTP.
const checkId: Check = (id) =>
  nonEmpty(id) &&
  (id === '.' || id === '..'
    ? badId(`may not be "${id}" (a URL path segment cannot carry it)`)
    : /\p{Cs}/u.test(id)
      ? badId('has a lone surrogate (it cannot be URL-encoded)')
      : id.length > maxIdLength
        ? badId(`is longer than ${maxIdLength} characters`)
        : true);

const requestChecks: Record<string, Check> = {
  id: checkId,
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
