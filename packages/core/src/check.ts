import type { WaitforErrorCode } from './waitforError';
import { WaitforError } from './waitforError';

/** True for a plain object: not null, not an array, not a Map/Date/…. Works across realms. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  ({}).toString.call(value) === '[object Object]';

/** Throws a WaitforError about the field at `path`. */
export function fail(code: WaitforErrorCode, path: string, message: string): never {
  throw new WaitforError(code, message, { path });
}

/** How one key of a wire object is checked: a test, required or not. */
export type Rule = readonly [test: (value: unknown) => boolean, required?: boolean];

/** A non-empty string. */
export const nonEmpty: Rule[0] = (value) => typeof value === 'string' && value !== '';

/** A string. */
export const isString: Rule[0] = (value) => typeof value === 'string';

/**
 * Checks an untrusted object against `rules` and returns a shallow copy: unknown keys and wrong
 * types are errors naming the key.
 */
export function parseRecord(
  value: unknown,
  code: WaitforErrorCode,
  what: string,
  rules: Record<string, Rule>,
): Record<string, unknown> {
  if (!isRecord(value)) fail(code, '', `${what} is not an object`);
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(rules, key)) fail(code, key, `${what}.${key} is unknown`);
  }
  for (const [key, [test, required]] of Object.entries(rules)) {
    const field = value[key];
    if (field === undefined ? required : !test(field)) {
      fail(code, key, `${what}.${key} is ${field === undefined ? 'missing' : 'invalid'}`);
    }
  }
  return { ...value };
}
