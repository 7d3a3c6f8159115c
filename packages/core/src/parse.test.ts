import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAnswer, parseRequest, WaitforError } from '@waitfor/core';

const valid = { id: 'r1', kind: 'input', prompt: 'Name?' };

/** Runs `action` and returns the WaitforError it throws (fails the test if it does not throw one). */
function caught(action: () => unknown): WaitforError {
  try {
    action();
  } catch (error) {
    if (WaitforError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a WaitforError');
}

describe('parseRequest', () => {
  it('accepts a full Request and copies it', () => {
    const full = {
      ...valid,
      url: 'https://example.com/auth',
      data: { schema: { type: 'object' }, origin: { server: 'weather', era: 'legacy' } },
      expiresAt: '2026-07-28T10:00:00.5+02:00',
    };
    const parsed = parseRequest(full);
    expect(parsed).toEqual(full);
    expect(parsed).not.toBe(full);
  });

  it.each([
    ['not an object', null, ''],
    ['an array', [], ''],
    ['missing id', { kind: 'input', prompt: '' }, 'id'],
    ['empty id', { ...valid, id: '' }, 'id'],
    ['numeric id', { ...valid, id: 1 }, 'id'],
    // An id is a URL path segment of @waitfor/http's answer route: it must be one that survives.
    ['id "."', { ...valid, id: '.' }, 'id'],
    ['id ".."', { ...valid, id: '..' }, 'id'],
    ['id with a lone surrogate', { ...valid, id: 'a\uD800' }, 'id'],
    ['id past 512 characters', { ...valid, id: 'x'.repeat(513) }, 'id'],
    ['missing kind', { id: 'a', prompt: '' }, 'kind'],
    ['missing prompt', { id: 'a', kind: 'input' }, 'prompt'],
    ['url not a string', { ...valid, url: 3 }, 'url'],
    ['data an array', { ...valid, data: [] }, 'data'],
    ['data.origin null', { ...valid, data: { origin: null } }, 'data.origin'],
    ['data.origin a string', { ...valid, data: { origin: 'weather' } }, 'data.origin'],
    ['data.origin an array', { ...valid, data: { origin: ['weather'] } }, 'data.origin'],
    ['origin without server', { ...valid, data: { origin: {} } }, 'data.origin.server'],
    [
      'origin with an empty server',
      { ...valid, data: { origin: { server: '' } } },
      'data.origin.server',
    ],
    [
      'origin with a numeric server',
      { ...valid, data: { origin: { server: 1 } } },
      'data.origin.server',
    ],
    [
      'origin with a numeric taskId',
      { ...valid, data: { origin: { server: 'weather', taskId: 7 } } },
      'data.origin.taskId',
    ],
    ['expiresAt a number', { ...valid, expiresAt: 1 }, 'expiresAt'],
    ['expiresAt not RFC 3339', { ...valid, expiresAt: '2026-07-28 10:00' }, 'expiresAt'],
    ['expiresAt Feb 30', { ...valid, expiresAt: '2026-02-30T00:00:00Z' }, 'expiresAt'],
    ['unknown top-level key', { ...valid, extra: 1 }, 'extra'],
    [
      '__proto__ key',
      JSON.parse('{"id":"a","kind":"input","prompt":"","__proto__":{}}'),
      '__proto__',
    ],
  ])('rejects %s naming the field', (_name, value, path) => {
    const error = caught(() => parseRequest(value));
    expect(error.code).toBe('invalid_request');
    expect(error.path).toBe(path);
    if (path) expect(error.message).toContain(path);
  });

  it.each(['...', '.a', 'a/..', '%2e%2e', '😀', 'x'.repeat(512)])('accepts the id %j', (id) => {
    expect(parseRequest({ ...valid, id }).id).toBe(id);
  });

  it('never throws anything but WaitforError on random input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({ id: fc.anything(), kind: fc.anything(), prompt: fc.anything() }),
        ),
        (value) => {
          try {
            parseRequest(value);
          } catch (error) {
            expect(WaitforError.isInstance(error)).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('round-trips every valid Request through JSON unchanged', () => {
    const dateTime = fc
      .date({
        min: new Date('0001-01-01T00:00:00Z'),
        max: new Date('9999-12-31T23:59:59Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString());
    const jsonRecord = fc.dictionary(fc.string(), fc.jsonValue());
    const request = fc.record(
      {
        id: fc.string({ minLength: 1 }).filter((id) => id !== '.' && id !== '..'),
        kind: fc.oneof(
          fc.constantFrom('input', 'authorization', 'approval', 'question'),
          fc.string({ minLength: 1 }),
        ),
        prompt: fc.string(),
        url: fc.webUrl(),
        data: fc.oneof(
          jsonRecord.filter((data) => !('origin' in data)),
          fc.record({
            origin: fc.record({ server: fc.string({ minLength: 1 }), era: fc.string() }),
            extra: fc.jsonValue(),
          }),
        ),
        expiresAt: dateTime,
      },
      { requiredKeys: ['id', 'kind', 'prompt'] },
    );
    fc.assert(
      fc.property(request, (value) => {
        // JSON itself turns -0 into 0, so the wire copy is the reference for the JSON leg.
        const wire: unknown = JSON.parse(JSON.stringify(value));
        expect(parseRequest(wire)).toEqual(wire);
        expect(parseRequest(value)).toEqual(value);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseAnswer', () => {
  it('requires a reason exactly when the Answer is a refusal', () => {
    const shape = fc.record(
      { id: fc.constant('a'), ok: fc.boolean(), reason: fc.oneof(fc.string(), fc.anything()) },
      { requiredKeys: ['id', 'ok'] },
    );
    fc.assert(
      fc.property(shape, (value) => {
        const wellFormed = value.ok
          ? value.reason === undefined
          : typeof value.reason === 'string' && value.reason !== '';
        if (wellFormed) {
          expect(parseAnswer(value)).toEqual(value);
        } else {
          const error = caught(() => parseAnswer(value));
          expect([error.code, error.path]).toEqual(['invalid_answer', 'reason']);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts the wire shapes', () => {
    expect(parseAnswer({ id: 'a', ok: true, data: { x: 1 } })).toEqual({
      id: 'a',
      ok: true,
      data: { x: 1 },
    });
    expect(parseAnswer({ id: 'a', ok: false, reason: 'declined' })).toEqual({
      id: 'a',
      ok: false,
      reason: 'declined',
    });
  });

  it.each([
    ['ok not boolean', { id: 'a', ok: 'yes' }, 'ok'],
    ['missing ok', { id: 'a' }, 'ok'],
    ['missing id', { ok: true }, 'id'],
    ['data not an object', { id: 'a', ok: true, data: 'x' }, 'data'],
    ['reason not a string', { id: 'a', ok: false, reason: 1 }, 'reason'],
    ['a refusal without a reason', { id: 'a', ok: false }, 'reason'],
    ['a refusal with an empty reason', { id: 'a', ok: false, reason: '' }, 'reason'],
    ['an acceptance with a reason', { id: 'a', ok: true, reason: 'declined' }, 'reason'],
    ['unknown key', { id: 'a', ok: true, content: {} }, 'content'],
    ['a string', 'accept', ''],
  ])('rejects %s naming the field', (_name, value, path) => {
    const error = caught(() => parseAnswer(value));
    expect(error.code).toBe('invalid_answer');
    expect(error.path).toBe(path);
  });

  it('never throws anything but WaitforError, and round-trips valid Answers', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          parseAnswer(value);
        } catch (error) {
          expect(WaitforError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
    const data = fc.dictionary(fc.string(), fc.jsonValue());
    const answer = fc.oneof(
      fc.record(
        { id: fc.string({ minLength: 1 }), ok: fc.constant(true), data },
        {
          requiredKeys: ['id', 'ok'],
        },
      ),
      fc.record(
        {
          id: fc.string({ minLength: 1 }),
          ok: fc.constant(false),
          data,
          reason: fc.string({ minLength: 1 }),
        },
        { requiredKeys: ['id', 'ok', 'reason'] },
      ),
    );
    fc.assert(
      fc.property(answer, (value) => {
        const wire: unknown = JSON.parse(JSON.stringify(value));
        expect(parseAnswer(wire)).toEqual(wire);
        expect(parseAnswer(value)).toEqual(value);
      }),
    );
  });
});
