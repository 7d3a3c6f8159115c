import { describe, expect, it } from 'vitest';
import {
  accept,
  answerCause,
  cancel,
  createRequestId,
  decline,
  expire,
  parseAnswer,
  requestOrigin,
  WaitforError,
} from '@waitfor/core';
import type { Request } from '@waitfor/core';

const request: Request = { id: 'r1', kind: 'input', prompt: 'Which region?' };

describe('answer helpers', () => {
  it('build the wire shapes from a Request or an id', () => {
    expect(accept(request, { region: 'eu' })).toEqual({
      id: 'r1',
      ok: true,
      data: { region: 'eu' },
    });
    expect(accept('r1')).toStrictEqual({ id: 'r1', ok: true });
    expect(decline(request)).toStrictEqual({ id: 'r1', ok: false, reason: 'declined' });
    expect(cancel('r1')).toStrictEqual({ id: 'r1', ok: false, reason: 'cancelled' });
    expect(expire(request)).toStrictEqual({ id: 'r1', ok: false, reason: 'expired' });
  });

  it('keep a cancel cause off the wire but readable', () => {
    const cause = new Error('boom');
    const answer = cancel(request, cause);
    expect(answerCause(answer)).toBe(cause);
    expect(JSON.parse(JSON.stringify(answer))).toEqual({
      id: 'r1',
      ok: false,
      reason: 'cancelled',
    });
    expect(Object.keys(answer)).toEqual(['id', 'ok', 'reason']);
    expect(parseAnswer(answer)).toEqual({ id: 'r1', ok: false, reason: 'cancelled' });
    expect(answerCause(decline(request))).toBeUndefined();
  });
});

describe('createRequestId', () => {
  it('prefixes and never repeats', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => createRequestId('elc')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^elc-.+/);
    expect(createRequestId()).toMatch(/^req-.+/);
  });

  it('still makes unique ids where crypto.randomUUID is missing (plain-http pages)', () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    Object.defineProperty(globalThis, 'crypto', { value: {}, configurable: true });
    try {
      const ids = new Set(Array.from({ length: 1000 }, () => createRequestId('x')));
      expect(ids.size).toBe(1000);
      for (const id of ids) expect(id).toMatch(/^x-.+/);
    } finally {
      Object.defineProperty(globalThis, 'crypto', original!);
    }
  });
});

describe('requestOrigin', () => {
  it('returns data.origin', () => {
    const origin = { server: 'weather', era: 'modern' };
    expect(requestOrigin({ ...request, data: { origin } })).toBe(origin);
    expect(requestOrigin(request)).toBeUndefined();
    expect(requestOrigin({ ...request, data: { schema: {} } })).toBeUndefined();
  });
});

describe('WaitforError', () => {
  it('carries code, path and cause and is recognised across copies by its brand', () => {
    const cause = new Error('inner');
    const error = new WaitforError('invalid_request', 'bad', { cause, path: 'id' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('WaitforError');
    expect(error.code).toBe('invalid_request');
    expect(error.path).toBe('id');
    expect(error.cause).toBe(cause);
    expect(WaitforError.isInstance(error)).toBe(true);
    // Another installed copy of core: a different class with the same Symbol.for brand.
    const foreign = Object.create({ [Symbol.for('waitfor.error')]: true }) as unknown;
    expect(WaitforError.isInstance(foreign)).toBe(true);
    expect(WaitforError.isInstance(new Error('x'))).toBe(false);
    expect(WaitforError.isInstance(null)).toBe(false);
    expect('cause' in new WaitforError('invalid_answer', 'no cause')).toBe(false);
  });
});
