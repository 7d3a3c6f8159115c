import { describe, expect, it } from 'vitest';
import { brandClass } from './index';

const key = 'waitfor.test.error';

/** A class as each package writes it, made twice: two installed copies of one package. */
const copy = () =>
  class TestError extends Error {
    static isInstance = brandClass(this, key);
  };

describe('brandClass', () => {
  const [First, Second] = [copy(), copy()];

  it('recognises instances of every copy, and of subclasses', () => {
    expect(new First() instanceof Second).toBe(false);
    expect(Second.isInstance(new First())).toBe(true);
    expect(First.isInstance(new Second())).toBe(true);
    expect(First.isInstance(new (class extends Second {})())).toBe(true);
  });

  it('recognises a plain object carrying the brand, and nothing else', () => {
    expect(First.isInstance({ [Symbol.for(key)]: true })).toBe(true);
    for (const value of [
      new Error('plain'),
      { [Symbol.for(key)]: 'yes' },
      { [Symbol(key)]: true },
      null,
      undefined,
      'text',
      0,
    ]) {
      expect(First.isInstance(value)).toBe(false);
    }
  });

  it('keeps the brand off the instance (equality and spreading see the same keys as before)', () => {
    expect(Object.getOwnPropertySymbols(new First())).toEqual([]);
  });
});

describe('brandClass with a name', () => {
  it('names every instance on the prototype, whatever a bundler renames the class to', () => {
    const Renamed = class x extends Error {
      static isInstance = brandClass(this, 'waitfor.test.named', 'NamedError');
    };
    const error = new Renamed('message');
    expect(error.name).toBe('NamedError');
    expect(String(error)).toBe('NamedError: message');
    expect(Object.keys(error)).not.toContain('name');
  });
});
