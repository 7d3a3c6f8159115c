/** Set `target[key]` as an own, plain data property, even for a key named "__proto__". */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else target[key] = value;
}
