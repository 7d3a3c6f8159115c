import { describe, expect, it } from 'vitest';
import { isWaitforError, WaitforError } from '@waitfor/core';
import { isStoreError, StoreError } from '@waitfor/store';
import { isWaitforReactError, WaitforReactError } from '@waitfor/react';
import { HttpInboxError, isHttpInboxError } from './index';

// One error base: every package's error is a WaitforError (its base marker), and each keeps a
// marker of its own that the others' errors do not carry.
const cases = [
  ['HttpInboxError', () => new HttpInboxError('conflict', 'x'), isHttpInboxError],
  ['StoreError', () => new StoreError('closed', 'x'), isStoreError],
  ['WaitforReactError', () => new WaitforReactError('missing_provider', 'x'), isWaitforReactError],
] as const;

describe.each(cases)('%s', (name, make, isOwn) => {
  it('is a WaitforError, recognised by the base marker and by its own', () => {
    const error = make();
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(WaitforError);
    expect(isWaitforError(error)).toBe(true);
    expect(WaitforError.isInstance(error)).toBe(true);
    expect(isOwn(error)).toBe(true);
  });

  it('its own marker is not any other package’s error, nor core’s', () => {
    for (const [other, makeOther] of cases)
      if (other !== name) expect(isOwn(makeOther())).toBe(false);
    expect(isOwn(new WaitforError('invalid_request', 'x'))).toBe(false);
  });

  it('a copy of the class from another bundle is recognised (Symbol.for, not instanceof)', () => {
    const [own] = Object.getOwnPropertySymbols(Object.getPrototypeOf(make()));
    const foreign = Object.assign(new Error('from another copy'), {
      [Symbol.for('waitfor.error')]: true,
      [own!]: true,
    });
    expect(isWaitforError(foreign)).toBe(true);
    expect(isOwn(foreign)).toBe(true);
  });
});

describe('per-field errors', () => {
  it('are the same `errors` record on every error that has them', () => {
    const errors = { age: 'Expected a number.' };
    expect(new HttpInboxError('invalid_form', 'x', { errors }).errors).toEqual(errors);
    expect(new StoreError('invalid_answer', 'x', { errors }).errors).toEqual(errors);
    expect(new WaitforError('invalid_answer', 'x', { errors }).errors).toEqual(errors);
  });
});
