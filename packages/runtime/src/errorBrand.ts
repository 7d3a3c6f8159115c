/**
 * Brands the instances of `Class` with `Symbol.for(key)` and returns its `isInstance`: true for an
 * instance made by any installed copy of the class. Two copies share the registry symbol, never the
 * class itself, so `instanceof` would fail between them.
 */
export function brandClass<T>(
  Class: { prototype: T },
  key: string,
): (value: unknown) => value is T {
  const brand = Symbol.for(key);
  // On the prototype: no per-instance cost, and not an own key that equality checks would see
  // (a symbol key is never listed by for…in or Object.keys either).
  (Class.prototype as Record<symbol, unknown>)[brand] = true;
  return (value): value is T =>
    (value as Record<symbol, unknown> | null | undefined)?.[brand] === true;
}
