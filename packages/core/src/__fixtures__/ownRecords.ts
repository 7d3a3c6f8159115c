/**
 * Records whose keys are data, for the field-name property tests of core, the bridge and the store:
 * `__proto__` and every other inherited name as an own property, compared by own keys only.
 */

/** An object with `entries` as own, enumerable data properties (`__proto__` included). */
export function own<T>(entries: Array<[string, T]>): Record<string, T> {
  const record: Record<string, T> = {};
  for (const [key, value] of entries)
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return record;
}

/** Own keys and values, in a comparable form. */
export const entriesOf = (value: unknown) =>
  Object.getOwnPropertyNames(value ?? {})
    .sort()
    .map((key) => [key, (value as Record<string, unknown>)[key]]);
