import { describe, expect, it } from 'vitest';
import {
  defaultFormLimits,
  formFields,
  parseFormSchema,
  validateFormAnswer,
  type FormLimits,
} from '@waitfor/core/form';
import { WaitforError } from '@waitfor/core';

function schemaError(value: unknown, limits?: Partial<FormLimits>): WaitforError {
  try {
    parseFormSchema(value, limits === undefined ? undefined : { limits });
  } catch (error) {
    if (WaitforError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected invalid_schema');
}

const withProperty = (property: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { field: property },
  ...extra,
});

const names = (count: number): string[] => Array.from({ length: count }, (_, index) => `c${index}`);

const manyFields = (count: number) => ({
  type: 'object',
  properties: Object.fromEntries(names(count).map((name) => [name, { type: 'boolean' }])),
});

describe('form limits', () => {
  it('has documented defaults generous for real forms', () => {
    expect(defaultFormLimits).toEqual({
      fields: 1_000,
      choices: 1_000,
      stringLength: 100_000,
      schemaSize: 1_000_000,
    });
    expect(Object.isFrozen(defaultFormLimits)).toBe(true);
  });

  it('refuses a huge string default by its length, without counting it character by character', () => {
    // 150 million characters: spreading it into an array of code points ran the host out of memory.
    const error = schemaError(withProperty({ type: 'string', default: 'a'.repeat(150_000_000) }));
    expect(error.code).toBe('invalid_schema');
    expect(error.path).toBe('properties.field.default');
    expect(error.message).toContain('stringLength');
    expect(error.message).toContain('100000');
  });

  it('checks a huge default against maxLength without allocating per character', () => {
    const huge = 'a'.repeat(150_000_000);
    const limits = { stringLength: Infinity, schemaSize: Infinity };
    const error = schemaError(
      withProperty({ type: 'string', maxLength: 10, default: huge }),
      limits,
    );
    expect(error.path).toBe('properties.field.default');
    expect(error.message).toContain('at most 10 characters');
    const schema = { type: 'object', properties: { field: { type: 'string', maxLength: 3 } } };
    expect(validateFormAnswer(schema, { field: huge })).toEqual({
      ok: false,
      errors: { field: 'Must be at most 3 characters.' },
    });
  });

  it('still counts code points: a surrogate pair is one character, a lone surrogate one too', () => {
    const schema = parseFormSchema(withProperty({ type: 'string', minLength: 2, maxLength: 2 }));
    expect(validateFormAnswer(schema, { field: '😀😀' }).ok).toBe(true);
    expect(validateFormAnswer(schema, { field: '\ud83d\ud83d' }).ok).toBe(true);
    expect(validateFormAnswer(schema, { field: '😀' }).ok).toBe(false);
    expect(validateFormAnswer(schema, { field: '😀😀😀' }).ok).toBe(false);
    expect(validateFormAnswer(schema, { field: '😀\ud83d' }).ok).toBe(true);
  });

  it.each([
    ['title', withProperty({ type: 'string', title: 'x'.repeat(101) }), 'properties.field.title'],
    [
      'description',
      withProperty({ type: 'string', description: 'x'.repeat(101) }),
      'properties.field.description',
    ],
    [
      'enum value',
      withProperty({ type: 'string', enum: ['a', 'x'.repeat(101)] }),
      'properties.field.enum.1',
    ],
    [
      'choice title',
      withProperty({ type: 'array', items: { anyOf: [{ const: 'a', title: 'x'.repeat(101) }] } }),
      'properties.field.items.anyOf.0.title',
    ],
    [
      'property name',
      { type: 'object', properties: { ['x'.repeat(101)]: { type: 'boolean' } } },
      'properties',
    ],
    [
      'unknown keyword',
      withProperty({ type: 'string', 'x-note': ['x'.repeat(101)] }),
      'properties.field.x-note.0',
    ],
    ['root title', { type: 'object', title: 'x'.repeat(101), properties: {} }, 'title'],
  ])('refuses a %s longer than stringLength, naming the limit and the path', (_, schema, path) => {
    const error = schemaError(schema, { stringLength: 100 });
    expect(error.code).toBe('invalid_schema');
    expect(error.path).toBe(path);
    expect(error.message).toBe(`${path}: longer than the limit stringLength (100 characters)`);
    expect(() => parseFormSchema(schema, { limits: { stringLength: 101 } })).not.toThrow();
  });

  it('refuses more fields than the limit', () => {
    expect(formFields(manyFields(1_000))).toHaveLength(1_000);
    const error = schemaError(manyFields(1_001));
    expect(error.path).toBe('properties');
    expect(error.message).toBe('properties: more than the limit fields (1000 properties)');
    expect(schemaError(manyFields(11), { fields: 10 }).message).toContain('fields (10 ');
    expect(parseFormSchema(manyFields(1_001), { limits: { fields: 1_001 } })).toBeDefined();
  });

  it.each([
    ['enum', (values: string[]) => ({ type: 'string', enum: values }), 'properties.field.enum'],
    [
      'oneOf',
      (values: string[]) => ({ type: 'string', oneOf: values.map((value) => ({ const: value })) }),
      'properties.field.oneOf',
    ],
    [
      'items.anyOf',
      (values: string[]) => ({
        type: 'array',
        items: { anyOf: values.map((value) => ({ const: value })) },
      }),
      'properties.field.items.anyOf',
    ],
    [
      'items.enum',
      (values: string[]) => ({ type: 'array', items: { enum: values } }),
      'properties.field.items.enum',
    ],
  ])('refuses more %s choices than the limit', (_, property, path) => {
    expect(formFields(withProperty(property(names(1_000))))[0]?.options).toHaveLength(1_000);
    const error = schemaError(withProperty(property(names(1_001))));
    expect(error.path).toBe(path);
    expect(error.message).toBe(`${path}: more than the limit choices (1000 choices)`);
  });

  it('refuses a schema larger than schemaSize, counting every key, string and value', () => {
    const big = withProperty({ type: 'string', description: 'x'.repeat(60_000) });
    const bigger = { ...big, description: 'y'.repeat(60_000) };
    expect(() => parseFormSchema(big, { limits: { schemaSize: 100_000 } })).not.toThrow();
    const error = schemaError(bigger, { schemaSize: 100_000 });
    expect(error.code).toBe('invalid_schema');
    expect(error.message).toMatch(/larger than the limit schemaSize \(100000 characters\)$/);
    // Unknown keywords count too: a million numbers is no small schema.
    const numbers = withProperty({ type: 'boolean', 'x-data': new Array(2_000_000).fill(0) });
    expect(schemaError(numbers).message).toContain('schemaSize (1000000 ');
    const holes = withProperty({ type: 'boolean', 'x-data': new Array(2 ** 32 - 1) });
    expect(schemaError(holes).message).toContain('schemaSize (1000000 ');
  });

  it('applies the limits of each call, also to a schema it checked before with higher limits', () => {
    const schema = manyFields(20);
    const checked = parseFormSchema(schema, { limits: { fields: 20 } });
    expect(schemaError(schema, { fields: 10 }).path).toBe('properties');
    expect(schemaError(checked, { fields: 10 }).path).toBe('properties');
    expect(parseFormSchema(checked)).toBe(checked);
  });

  it('refuses limits that are not numbers >= 0, unknown limits and limits that are no object', () => {
    for (const limits of [
      { fields: -1 },
      { choices: Number.NaN },
      { schemaSize: '1' },
      { field: 10 },
      null,
      'fields',
    ]) {
      expect(() =>
        parseFormSchema(manyFields(1), { limits: limits as Partial<FormLimits> }),
      ).toThrow(expect.objectContaining({ code: 'invalid_options' }));
    }
  });
});
