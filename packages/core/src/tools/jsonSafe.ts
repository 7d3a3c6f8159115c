import { isRecord } from '../check';

/** A value that survives JSON.stringify/JSON.parse unchanged. */
export type JsonValue =
  null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Deepest nesting a JSON-safe value may have (state and args are small; a cycle hits it at once). */
const MAX_DEPTH = 64;

/**
 * The path of the first part of `value` that JSON would change or drop (undefined, a function, a
 * Date, NaN, a hole, a cycle or nesting past 64), or undefined when it is JSON-safe. One linear walk.
 */
export function jsonUnsafePath(value: unknown, path = '', depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return path;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  const at = (key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      // A hole reads as undefined: refused like one.
      const found = jsonUnsafePath(value[index], at(index), depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isRecord(value) || Object.getOwnPropertySymbols(value).length > 0) return path;
  // A class instance would come back from JSON as a plain object, its prototype lost.
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return path;
  for (const key of Object.keys(value)) {
    const found = jsonUnsafePath(value[key], at(key), depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
