import type { WaitforErrorCode } from './waitforError';
import { WaitforError } from './waitforError';
import { isRecord } from '@waitfor/runtime';

// One record check for every package: an object with readable keys, not null, not an array.
export { isRecord } from '@waitfor/runtime';

/** Throws a WaitforError about the field at `path`. */
export function fail(code: WaitforErrorCode, path: string, message: string): never {
  throw new WaitforError(code, message, { path });
}

/** Throws a WaitforError saying the field at `path` of `what` (e.g. `Request`) is missing or invalid. */
export const reject = (code: WaitforErrorCode, what: string, path: string, field: unknown): never =>
  fail(code, path, `${what}.${path} is ${field === undefined ? 'missing' : 'invalid'}`);

/**
 * How one key of a wire object is checked: true when its value (undefined when absent) is fine.
 * It also sees the whole object, for keys that depend on another, and may throw a more precise error.
 */
export type Check = (value: unknown, record: Record<string, unknown>) => boolean;

/** A string. */
export const isString = (value: unknown): value is string => typeof value === 'string';

/** A non-empty string. */
export const nonEmpty = (value: unknown): value is string => isString(value) && value !== '';

/** Lets a key be absent; when present, `check` decides. */
export const optional =
  (check: Check): Check =>
  (value, record) =>
    value === undefined || check(value, record);

/**
 * Checks an untrusted object against `checks` (in their order) and returns a shallow copy: unknown
 * keys and failed checks are errors naming the key.
 */
export function parseRecord(
  value: unknown,
  code: WaitforErrorCode,
  what: string,
  checks: Record<string, Check>,
): Record<string, unknown> {
  if (!isRecord(value)) fail(code, '', `${what} is not an object`);
  // The checks' keys first, in their order, then the object's other keys (own ones, `__proto__` too).
  for (const key in { ...checks, ...value }) {
    if (!Object.hasOwn(checks, key)) fail(code, key, `${what}.${key} is unknown`);
    if (!checks[key]!(value[key], value)) reject(code, what, key, value[key]);
  }
  return { ...value };
}
