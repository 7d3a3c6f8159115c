import { describe, expect, it } from 'vitest';
import { parseFormSchema, validateFormAnswer } from '@waitfor/core/form';
import { everyShape } from '../__fixtures__/everyShape';

const complete = { name: 'Ada', email: 'ada@example.com', age: 36 };

/** A property schema, an input for it and the expected message or value. */
type Row = [Record<string, unknown>, unknown, unknown];

const outOfRange = 'Enter a whole number between -9007199254740991 and 9007199254740991.';
const lossy = 'Enter a number with fewer digits: this one cannot be kept exactly.';
const badUri = 'Enter a URI such as https://example.com.';
const badDateTime = 'Enter a date and time such as 2026-01-31T09:00:00Z.';

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

  it.each<Row>([
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
    // Integers a number cannot hold exactly are refused, never rounded.
    [{ type: 'integer' }, '9007199254740993', outOfRange],
    [{ type: 'integer' }, '-9007199254740992', outOfRange],
    [{ type: 'integer' }, ' 1e20 ', outOfRange],
    [{ type: 'integer' }, 2 ** 53, outOfRange],
    [{ type: 'integer' }, -1e300, outOfRange],
    [{ type: 'integer' }, '4503599627370495.5', 'Enter a whole number.'],
    [{ type: 'integer' }, '1.0000000000000001', 'Enter a whole number.'],
    [{ type: 'integer' }, '1e-400', 'Enter a whole number.'],
    // Number text is converted only when no digit is lost.
    [{ type: 'number' }, '0.1000000000000000055511151231257827', lossy],
    [{ type: 'number' }, '12345678901234567890', lossy],
    [{ type: 'number' }, '9007199254740993', lossy],
    [{ type: 'number' }, '1e-400', lossy],
    [{ type: 'number' }, '1e400', 'Enter a number.'],
    [{ type: 'number' }, '1.2.3', 'Enter a number.'],
    // A uri is absolute (RFC 3986): a scheme, a colon, something after it, and only URI characters.
    ...[
      'a:',
      'http:?query',
      'http:#fragment',
      '//example.com/path',
      'example.com',
      '1http://example.com',
      'ht tp://example.com',
      'http://x/<script>',
      'http://x/ y',
      'http://x/"quoted"',
      'http://x/`tick`',
      'http://x/{a}|b\\c^d',
      'http://x/\u0000',
      'http://x/\u007f',
      'http://x/\n',
      'https://例え.jp/',
      'https://\u017f\u212a.example/', // ſ and the Kelvin sign, which case-folding maps to s and k
      'http://x/%zz',
      'http://x/%4',
      'http://x/#a#b',
    ].map((uri): Row => [{ type: 'string', format: 'uri' }, uri, badUri]),
    [{ type: 'string', format: 'date' }, '2026-02-30', 'Enter a date as YYYY-MM-DD.'],
    [{ type: 'string', format: 'date' }, '2025-02-29', 'Enter a date as YYYY-MM-DD.'],
    [{ type: 'string', format: 'date-time' }, '2026-02-30T09:00:00Z', badDateTime],
    [{ type: 'string', format: 'date-time' }, '2026-01-31T09:00:00', badDateTime],
    [{ type: 'string', format: 'date-time' }, '2026-01-31T09:00:00+24:00', badDateTime],
    [{ type: 'string', format: 'date-time' }, '2026-01-31T09:00Z', badDateTime],
    // RFC 3339 allows a lower-case t and z, but zod's datetime check (what many servers run) does
    // not, and a refusal there loses the whole answer.
    [{ type: 'string', format: 'date-time' }, '2026-01-31t09:00:00.5+05:30', badDateTime],
    [{ type: 'string', format: 'date-time' }, '2026-01-31T09:00:00.5z', badDateTime],
  ])('%j refuses %j', (property, input, message) => {
    const schema = { type: 'object', properties: { field: property } };
    expect(validateFormAnswer(schema, { field: input })).toEqual({
      ok: false,
      errors: { field: message },
    });
  });

  it.each<Row>([
    [{ type: 'integer' }, '9007199254740991', Number.MAX_SAFE_INTEGER],
    [{ type: 'integer' }, ' -9007199254740991 ', Number.MIN_SAFE_INTEGER],
    [{ type: 'integer' }, '1e3', 1000],
    [{ type: 'integer' }, '+12.000', 12],
    [{ type: 'number' }, '9007199254740992', 2 ** 53],
    [{ type: 'number' }, '0.1', 0.1],
    [{ type: 'number' }, ' 1.50 ', 1.5],
    [{ type: 'number' }, '.5e1', 5],
    [{ type: 'number' }, '5e-324', Number.MIN_VALUE],
    [{ type: 'number' }, '1.7976931348623157e308', Number.MAX_VALUE],
    [{ type: 'number' }, '0e99999', 0],
    ...[
      'https://example.com',
      'urn:isbn:0451450523',
      'mailto:ada@example.com',
      'a:b',
      'file:///etc/hosts',
      'http://[::1]:8080/a?b=c#d',
      'tag:example.com,2026:x?#',
      "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
      'HTTPS://EXAMPLE.COM/%E2%82%AC',
    ].map((uri): Row => [{ type: 'string', format: 'uri' }, uri, uri]),
    [{ type: 'string', format: 'date' }, '2024-02-29', '2024-02-29'],
    [
      { type: 'string', format: 'date-time' },
      '2026-01-31T09:00:00.5+05:30',
      '2026-01-31T09:00:00.5+05:30',
    ],
  ])('%j accepts %j as %j', (property, input, value) => {
    const schema = { type: 'object', properties: { field: property } };
    expect(validateFormAnswer(schema, { field: input })).toEqual({
      ok: true,
      value: { field: value },
    });
  });

  it('refuses a very long number text without stalling on it', () => {
    // The former pattern backtracked quadratically here: minutes for 200,000 digits.
    const schema = { type: 'object', properties: { field: { type: 'number' } } };
    expect(validateFormAnswer(schema, { field: `${'1'.repeat(200_000)}x` })).toEqual({
      ok: false,
      errors: { field: 'Enter a number.' },
    });
  });

  it('counts string length in code points', () => {
    const schema = { type: 'object', properties: { field: { type: 'string', maxLength: 2 } } };
    expect(validateFormAnswer(schema, { field: '😀😀' })).toEqual({
      ok: true,
      value: { field: '😀😀' },
    });
  });

  it('takes an answer as given with defaults: false: nothing filled in, a required field asked for', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        plan: { type: 'string', enum: ['free', 'pro'], default: 'free' },
        age: { type: 'integer' },
      },
      required: ['plan'],
    };
    expect(validateFormAnswer(schema, { name: null, plan: 'pro' }, { defaults: false })).toEqual({
      ok: true,
      value: { plan: 'pro' },
    });
    // One pass finds every problem: the required field left out and a bad value.
    expect(validateFormAnswer(schema, { age: 'old' }, { defaults: false })).toEqual({
      ok: false,
      errors: { plan: 'Required.', age: 'Enter a number.' },
    });
    // The default (and the option left out) still fill what is omitted.
    expect(validateFormAnswer(schema, {}, { defaults: true })).toEqual(
      validateFormAnswer(schema, {}),
    );
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
    // In errors too: an unknown "__proto__" key stays a plain key of the errors.
    const unknown = validateFormAnswer(
      { type: 'object', properties: {} },
      JSON.parse('{"__proto__": 1}'),
    );
    expect(unknown.ok).toBe(false);
    if (unknown.ok) return;
    expect(Object.getPrototypeOf(unknown.errors)).toBe(Object.prototype);
    expect(Object.keys(unknown.errors)).toEqual(['__proto__']);
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
