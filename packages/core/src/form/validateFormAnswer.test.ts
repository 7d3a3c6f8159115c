import { describe, expect, it } from 'vitest';
import { parseFormSchema, validateFormAnswer } from '@waitfor/core/form';
import { everyShape } from '../__fixtures__/everyShape';

const complete = { name: 'Ada', email: 'ada@example.com', age: 36 };

describe('validateFormAnswer', () => {
  it('accepts a valid answer and applies defaults for omitted fields', () => {
    expect(validateFormAnswer(everyShape, complete)).toEqual({
      ok: true,
      value: { ...complete, code: 'aaa', subscribe: false, color: 'red', tags: ['a'] },
    });
  });

  it('fills every default of the SEP-1034 conformance schema into an empty accept', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', default: true },
      },
      required: [],
    };
    expect(validateFormAnswer(schema, {})).toEqual({
      ok: true,
      value: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    });
  });

  it('coerces what form inputs send', () => {
    const result = validateFormAnswer(everyShape, {
      ...complete,
      age: '37',
      score: ' 2.5 ',
      subscribe: 'true',
      tags: 'b',
      fish: ['f1', 'f2'],
    });
    expect(result).toEqual({
      ok: true,
      value: {
        ...complete,
        age: 37,
        score: 2.5,
        subscribe: true,
        tags: ['b'],
        fish: ['f1', 'f2'],
        code: 'aaa',
        color: 'red',
      },
    });
    expect(validateFormAnswer(everyShape, { ...complete, subscribe: 'false' })).toMatchObject({
      value: { subscribe: false },
    });
  });

  it('drops empty strings of optional fields and refuses them for required ones', () => {
    expect(
      validateFormAnswer(everyShape, { ...complete, score: '', homepage: '', hero: '' }),
    ).toEqual({
      ok: true,
      value: { ...complete, code: 'aaa', subscribe: false, color: 'red', tags: ['a'] },
    });
    expect(validateFormAnswer(everyShape, { ...complete, name: '' })).toEqual({
      ok: false,
      errors: { name: 'Required.' },
    });
  });

  it('reports one message per offending field', () => {
    const result = validateFormAnswer(everyShape, {
      email: 'not-an-email',
      homepage: 'no scheme',
      birthday: '2023-02-29',
      meeting: '2026-01-01 10:00',
      age: 200,
      score: 'abc',
      subscribe: 'maybe',
      color: 'blue',
      hero: 'h3',
      tags: ['a', 'b', 'c'],
      fish: ['f1', 'f1'],
      birds: 'b9',
      nickname: 'x',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(
      [
        'name',
        'email',
        'homepage',
        'birthday',
        'meeting',
        'age',
        'score',
        'subscribe',
        'color',
        'hero',
        'tags',
        'fish',
        'birds',
        'nickname',
      ].sort(),
    );
    expect(result.errors.name).toBe('Required.');
    expect(result.errors.age).toBe('Must be at most 150.');
    expect(result.errors.nickname).toBe('Unknown field.');
    for (const message of Object.values(result.errors)) expect(message).toMatch(/^[A-Z].*\.$/);
  });

  it.each([
    [{ type: 'integer' }, '4.5', 'Enter a whole number.'],
    [{ type: 'integer' }, 4.5, 'Enter a whole number.'],
    [{ type: 'number' }, '0x10', 'Enter a number.'],
    [{ type: 'number' }, ' ', 'Enter a number.'],
    [{ type: 'number' }, Number.NaN, 'Enter a number.'],
    [{ type: 'number' }, Number.POSITIVE_INFINITY, 'Enter a number.'],
    [{ type: 'number', minimum: 1 }, 0, 'Must be at least 1.'],
    [{ type: 'string', minLength: 2 }, 'a', 'Must be at least 2 characters.'],
    [{ type: 'string', maxLength: 1 }, 'ab', 'Must be at most 1 character.'],
    [{ type: 'string' }, 5, 'Enter text.'],
    [{ type: 'boolean' }, 1, 'Choose yes or no.'],
    [{ type: 'array', items: { enum: ['a', 'b'] }, minItems: 2 }, ['a'], 'Choose at least 2.'],
    [{ type: 'array', items: { enum: ['a'] } }, { 0: 'a' }, 'Choose from the options.'],
  ])('%j refuses %j', (property, input, message) => {
    const schema = { type: 'object', properties: { field: property } };
    expect(validateFormAnswer(schema, { field: input })).toEqual({
      ok: false,
      errors: { field: message },
    });
  });

  it('counts string length in code points', () => {
    const schema = { type: 'object', properties: { field: { type: 'string', maxLength: 2 } } };
    expect(validateFormAnswer(schema, { field: '😀😀' })).toEqual({
      ok: true,
      value: { field: '😀😀' },
    });
  });

  it('keeps hostile field names plain keys', () => {
    // JSON.parse makes "__proto__" an own key, as a hostile server's schema would arrive.
    const parsed: unknown = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}}}',
    );
    const result = validateFormAnswer(parsed, JSON.parse('{"__proto__": "x"}'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(Object.keys(result.value)).toEqual(['__proto__']);
  });

  it('treats null and undefined data as an empty answer and refuses other non-objects', () => {
    const schema = parseFormSchema({
      type: 'object',
      properties: { a: { type: 'string', default: 'x' } },
    });
    expect(validateFormAnswer(schema, undefined)).toEqual({ ok: true, value: { a: 'x' } });
    expect(validateFormAnswer(schema, null)).toEqual({ ok: true, value: { a: 'x' } });
    expect(validateFormAnswer(schema, ['x'])).toEqual({
      ok: false,
      errors: { '': 'Expected an object of field values.' },
    });
  });

  it('throws invalid_schema for a bad raw schema', () => {
    expect(() =>
      validateFormAnswer({ type: 'object', properties: { a: { type: 'object' } } }, {}),
    ).toThrowError(expect.objectContaining({ code: 'invalid_schema', path: 'properties.a' }));
  });
});
