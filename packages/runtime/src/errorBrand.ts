/**
 * Brands the instances of `Class` with `Symbol.for(key)` and returns its `isInstance`: true for an
 * instance made by any installed copy of the class. Two copies share the registry symbol, never the
 * class itself, so `instanceof` would fail between them. With `name`, the class's errors are named
 * so on the prototype (as `Error.prototype.name` is): a bundler that renames classes changes nothing.
 */
export function brandClass<T>(
  Class: { prototype: T },
  key: string,
  name?: string,
): (value: unknown) => value is T {
  const brand = Symbol.for(key);
  // On the prototype: no per-instance cost, and not an own key that equality checks would see
  // (a symbol key is never listed by for…in or Object.keys either).
  (Class.prototype as Record<symbol, unknown>)[brand] = true;
  if (name !== undefined)
    Object.defineProperty(Class.prototype, 'name', {
      value: name,
      writable: true,
      configurable: true,
    });
  return (value): value is T =>
    (value as Record<symbol, unknown> | null | undefined)?.[brand] === true;
}

/**
 * Brands and names an error subclass (see brandClass), adds its own `facts` (the options its
 * constructor keeps as properties, after its base's) and sets its static `isInstance` (declare it
 * on the class: `declare static isInstance: (value: unknown) => value is MyError`); returns the
 * same guard, for the package's `isMyError` export.
 */
export function brandError<T>(
  Class: { prototype: T; isInstance: unknown; facts: readonly string[] },
  key: string,
  name: string,
  facts: readonly string[] = [],
): (value: unknown) => value is T {
  const isInstance = brandClass(Class, key, name);
  Class.isInstance = isInstance;
  // Its own list, the inherited one first: the base class's list is never changed.
  Class.facts = [...Class.facts, ...facts];
  return isInstance;
}
