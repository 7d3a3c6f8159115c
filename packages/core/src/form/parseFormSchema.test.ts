import { describe, expect, it } from 'vitest';
import { formDefaults, formFields, parseFormSchema } from '@waitfor/core/form';
import { WaitforError } from '@waitfor/core';
import { everyShape } from '../__fixtures__/everyShape';

function schemaError(value: unknown): WaitforError {
  try {
    parseFormSchema(value);
  } catch (error) {
    if (WaitforError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`expected invalid_schema for ${JSON.stringify(value)}`);
}

const withProperty = (property: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { field: property },
  ...extra,
});

describe('parseFormSchema', () => {
  it('accepts every shape and returns a deeply frozen copy that keeps unknown keywords', () => {
    const schema = parseFormSchema(everyShape);
    expect(schema).toEqual(everyShape);
    expect(schema).not.toBe(everyShape);
    expect(Object.isFrozen(schema.properties)).toBe(true);
    expect(schema.properties.code).toMatchObject({ pattern: '^(a+)+$' });
    expect(parseFormSchema(schema)).toBe(schema);
  });

  it('normalises every shape into fields', () => {
    const fields = formFields(everyShape);
    const byName = Object.fromEntries(fields.map((field) => [field.name, field]));
    expect(fields.map((field) => field.name)).toEqual(Object.keys(everyShape.properties));
    expect(byName.name).toEqual({
      name: 'name',
      title: 'Name',
      kind: 'string',
      required: true,
      minLength: 1,
      maxLength: 50,
    });
    expect(byName.email).toMatchObject({
      kind: 'string',
      title: 'email',
      format: 'email',
      required: true,
    });
    expect(byName.age).toMatchObject({ kind: 'integer', minimum: 0, maximum: 150, default: 42 });
    expect(byName.score).toMatchObject({
      kind: 'number',
      minimum: 0.5,
      maximum: 9.5,
      required: false,
    });
    expect(byName.subscribe).toMatchObject({
      kind: 'boolean',
      default: false,
      description: 'Send me news',
    });
    expect(byName.color).toMatchObject({
      kind: 'select',
      options: [
        { value: 'red', label: 'red' },
        { value: 'green', label: 'green' },
      ],
    });
    expect(byName.hero?.options).toEqual([
      { value: 'h1', label: 'Superman' },
      { value: 'h2', label: 'Batman' },
    ]);
    expect(byName.pet?.options).toEqual([
      { value: 'p1', label: 'Cats' },
      { value: 'p2', label: 'Dogs' },
    ]);
    expect(byName.tags).toMatchObject({
      kind: 'multiselect',
      minItems: 1,
      maxItems: 2,
      default: ['a'],
    });
    expect(byName.fish).toMatchObject({
      kind: 'multiselect',
      options: [
        { value: 'f1', label: 'Tuna' },
        { value: 'f2', label: 'Salmon' },
      ],
    });
    expect(byName.birds).toMatchObject({
      kind: 'multiselect',
      options: [{ value: 'b1', label: 'Owl' }],
      maxItems: 1,
    });
    expect(Object.isFrozen(fields)).toBe(true);
  });

  it('derives defaults, as fresh copies', () => {
    const defaults = formDefaults(everyShape);
    expect(defaults).toEqual({ code: 'aaa', age: 42, subscribe: false, color: 'red', tags: ['a'] });
    (defaults.tags as string[]).push('b');
    expect(formDefaults(everyShape).tags).toEqual(['a']);
  });

  it('accepts a minimal schema and a choice without title', () => {
    expect(formFields({ type: 'object', properties: {} })).toEqual([]);
    expect(
      formFields(withProperty({ type: 'string', oneOf: [{ const: 'x' }] }))[0]?.options,
    ).toEqual([{ value: 'x', label: 'x' }]);
    expect(formFields(withProperty({ type: 'string', format: 'hostname' }))[0]?.format).toBe(
      'hostname',
    );
  });

  it.each([
    ['a non-object root', 'nope', ''],
    ['an array root', [], ''],
    ['a root whose type is not object', { type: 'array', properties: {} }, 'type'],
    ['a root without type', { properties: {} }, 'type'],
    ['missing properties', { type: 'object' }, 'properties'],
    ['required not an array', { type: 'object', properties: {}, required: 'name' }, 'required'],
    [
      'required naming an unknown property',
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] },
      'required.1',
    ],
    ['a $schema that is not a string', { type: 'object', properties: {}, $schema: 1 }, '$schema'],
    ['a property that is not an object', withProperty('string'), 'properties.field'],
    ['a nested object', withProperty({ type: 'object', properties: {} }), 'properties.field'],
    [
      'an array of objects',
      withProperty({ type: 'array', items: { type: 'object', properties: {} } }),
      'properties.field.items.type',
    ],
    ['an array without items', withProperty({ type: 'array' }), 'properties.field.items'],
    [
      'an array of free strings',
      withProperty({ type: 'array', items: { type: 'string' } }),
      'properties.field.items',
    ],
    ['an unknown type', withProperty({ type: 'null' }), 'properties.field.type'],
    ['a missing type', withProperty({ title: 'x' }), 'properties.field.type'],
    ['a type list', withProperty({ type: ['string', 'null'] }), 'properties.field.type'],
    [
      'a title that is not a string',
      withProperty({ type: 'string', title: 5 }),
      'properties.field.title',
    ],
    [
      'a negative minLength',
      withProperty({ type: 'string', minLength: -1 }),
      'properties.field.minLength',
    ],
    [
      'minLength above maxLength',
      withProperty({ type: 'string', minLength: 5, maxLength: 2 }),
      'properties.field.maxLength',
    ],
    [
      'a non-numeric minimum',
      withProperty({ type: 'number', minimum: '1' }),
      'properties.field.minimum',
    ],
    [
      'minimum above maximum',
      withProperty({ type: 'integer', minimum: 5, maximum: 1 }),
      'properties.field.maximum',
    ],
    [
      'minItems above maxItems',
      withProperty({ type: 'array', items: { enum: ['a'] }, minItems: 2, maxItems: 1 }),
      'properties.field.maxItems',
    ],
    ['an empty enum', withProperty({ type: 'string', enum: [] }), 'properties.field'],
    [
      'a non-string enum value',
      withProperty({ type: 'string', enum: ['a', 1] }),
      'properties.field.enum',
    ],
    [
      'duplicate enum values',
      withProperty({ type: 'string', enum: ['a', 'a'] }),
      'properties.field',
    ],
    [
      'an enum with a hole (every() would skip it)',
      // eslint-disable-next-line no-sparse-arrays
      withProperty({ type: 'string', enum: ['a', , 'b'] }),
      'properties.field.enum',
    ],
    [
      'titled choices with a hole',
      // eslint-disable-next-line no-sparse-arrays
      withProperty({ type: 'string', oneOf: [{ const: 'a' }, , { const: 'b' }] }),
      'properties.field.oneOf.1',
    ],
    [
      'enumNames of the wrong length',
      withProperty({ type: 'string', enum: ['a', 'b'], enumNames: ['A'] }),
      'properties.field.enumNames',
    ],
    [
      'a oneOf choice without const',
      withProperty({ type: 'string', oneOf: [{ title: 'A' }] }),
      'properties.field.oneOf.0',
    ],
    [
      'both enum and oneOf',
      withProperty({ type: 'string', enum: ['a'], oneOf: [{ const: 'a' }] }),
      'properties.field',
    ],
    [
      'a string default on a number',
      withProperty({ type: 'number', default: '42' }),
      'properties.field.default',
    ],
    [
      'a fractional default on an integer',
      withProperty({ type: 'integer', default: 1.5 }),
      'properties.field.default',
    ],
    [
      'a default outside the bounds',
      withProperty({ type: 'integer', maximum: 10, default: 11 }),
      'properties.field.default',
    ],
    [
      'a default outside the enum',
      withProperty({ type: 'string', enum: ['a'], default: 'b' }),
      'properties.field.default',
    ],
    [
      'a multi-select default outside the choices',
      withProperty({ type: 'array', items: { enum: ['a'] }, default: ['z'] }),
      'properties.field.default',
    ],
    [
      'a boolean default that is a string',
      withProperty({ type: 'boolean', default: 'true' }),
      'properties.field.default',
    ],
    ['a null default', withProperty({ type: 'string', default: null }), 'properties.field.default'],
    [
      'a string with both oneOf and anyOf (which lists the choices?)',
      withProperty({ type: 'string', oneOf: [{ const: 'a' }], anyOf: [{ const: 'b' }] }),
      'properties.field',
    ],
    [
      'a multi-select whose items have both oneOf and anyOf',
      withProperty({
        type: 'array',
        items: { oneOf: [{ const: 'a' }], anyOf: [{ const: 'a' }] },
      }),
      'properties.field.items',
    ],
    [
      'minItems above the number of choices',
      withProperty({
        type: 'array',
        items: { anyOf: [{ const: 'a' }, { const: 'b' }] },
        minItems: 3,
      }),
      'properties.field.minItems',
    ],
    [
      'integer bounds with no whole number between them',
      withProperty({ type: 'integer', minimum: 2.2, maximum: 2.8 }),
      'properties.field.maximum',
    ],
    [
      'an integer minimum beyond the safe range',
      withProperty({ type: 'integer', minimum: 2 ** 53 }),
      'properties.field.minimum',
    ],
    [
      'an integer maximum below the safe range',
      withProperty({ type: 'integer', maximum: -(2 ** 53) }),
      'properties.field.maximum',
    ],
    [
      'a required string of at most 0 characters (an empty string is no answer)',
      withProperty({ type: 'string', maxLength: 0 }, { required: ['field'] }),
      'properties.field.maxLength',
    ],
    [
      'an integer default beyond the safe range',
      withProperty({ type: 'integer', default: 2 ** 53 }),
      'properties.field.default',
    ],
    [
      'a uri default that is no absolute URI',
      withProperty({ type: 'string', format: 'uri', default: 'http://x/<script>' }),
      'properties.field.default',
    ],
  ])('rejects %s, naming the path', (_name, value, path) => {
    const error = schemaError(value);
    expect(error.code).toBe('invalid_schema');
    expect(error.path).toBe(path);
    if (path) expect(error.message).toContain(path);
  });

  it('accepts bounds that leave at least one answer', () => {
    const fields = formFields({
      type: 'object',
      properties: {
        all: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 2, maxItems: 5 },
        between: { type: 'integer', minimum: 2.5, maximum: 3.5 },
        edges: { type: 'integer', minimum: -(2 ** 53) + 1, maximum: 2 ** 53 - 1 },
        loose: { type: 'integer', minimum: -1e300, maximum: 1e300 },
        fraction: { type: 'number', minimum: 2.2, maximum: 2.8 },
        huge: { type: 'number', minimum: 2 ** 60 },
        empty: { type: 'string', maxLength: 0 },
      },
    });
    expect(fields.map((field) => field.name)).toEqual([
      'all',
      'between',
      'edges',
      'loose',
      'fraction',
      'huge',
      'empty',
    ]);
  });

  it('never caches a refused schema, so asking again refuses again', () => {
    const good = () => withProperty({ type: 'array', items: { anyOf: [{ const: 'a' }] } });
    const bad = () =>
      withProperty({ type: 'array', items: { anyOf: [{ const: 'a' }], oneOf: [{ const: 'b' }] } });
    const first = parseFormSchema(good());
    for (let round = 0; round < 3; round++) {
      expect(schemaError(bad()).path).toBe('properties.field.items');
      expect(parseFormSchema(good())).toEqual(first);
    }
    const tooMany = () =>
      withProperty({ type: 'array', items: { anyOf: [{ const: 'a' }] }, minItems: 2 });
    expect(schemaError(tooMany()).path).toBe('properties.field.minItems');
    expect(schemaError(tooMany()).path).toBe('properties.field.minItems');
  });

  it('checks an equal schema asked again in full (no copy is shared between callers), and any change', () => {
    const ask = () => JSON.parse(JSON.stringify(everyShape)) as Record<string, unknown>;
    const first = parseFormSchema(ask());
    const again = parseFormSchema(ask());
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    // Its own checked copy is taken as it is.
    expect(parseFormSchema(first)).toBe(first);

    // Any difference is checked in full: a broken default, an added property, another key order,
    // a hole, an undefined value where the copy has a key, a different prototype.
    const broken = ask();
    (broken.properties as Record<string, Record<string, unknown>>).age!.default = 200;
    expect(schemaError(broken).path).toBe('properties.age.default');
    const added = ask();
    (added.properties as Record<string, unknown>).extra = { type: 'boolean' };
    expect(formFields(added).map((field) => field.name)).toContain('extra');
    const { type, ...rest } = ask();
    const reordered = parseFormSchema({ ...rest, type });
    expect(reordered).not.toBe(first);
    expect(Object.keys(reordered).at(-1)).toBe('type');
    const holed = ask();
    const tags = (holed.properties as Record<string, Record<string, Record<string, unknown>>>)
      .tags!;
    tags.items!.enum = ['a', 'b', 'c'];
    delete (tags.items!.enum as string[])[1];
    expect(schemaError(holed).path).toBe('properties.tags.items.enum');
    const undefinedValue = ask();
    (undefinedValue.properties as Record<string, unknown>).name = undefined;
    expect(schemaError(undefinedValue).path).toBe('properties.name');
    // A keyword on the prototype is no keyword of the schema: own keys only, checked and copied.
    const inherited = Object.assign(Object.create({ enum: ['x'] }) as object, { type: 'string' });
    expect(formFields(withProperty(inherited))[0]).toMatchObject({ kind: 'string' });
    expect(formFields(withProperty(inherited))[0]?.options).toBeUndefined();
    expect(formFields(withProperty({ type: 'string' }))[0]).toMatchObject({ kind: 'string' });
    const hidden = Object.defineProperty({ type: 'string' }, 'enum', { value: ['x'] });
    expect(formFields(withProperty(hidden))[0]).toMatchObject({ kind: 'select' });
    expect(formFields(withProperty({ type: 'string' }))[0]).toMatchObject({ kind: 'string' });
  });

  it('refuses a hostile, deeply nested unknown keyword with a typed error instead of a stack overflow', () => {
    let deep: unknown = 'x';
    for (let depth = 0; depth < 200_000; depth++) deep = [deep];
    const error = schemaError(withProperty({ type: 'string', 'x-extra': deep }));
    expect(error.code).toBe('invalid_schema');
    expect(error.cause).toBeInstanceOf(RangeError);
  });

  it('does not find Object.prototype members through property or format names', () => {
    const fields = formFields(withProperty({ type: 'string', format: 'toString' }));
    expect(fields[0]?.format).toBe('toString');
    expect(
      formFields({
        type: 'object',
        properties: { constructor: { type: 'string' } },
        required: ['constructor'],
      }),
    ).toHaveLength(1);
    expect(schemaError({ type: 'object', properties: {}, required: ['toString'] }).path).toBe(
      'required.0',
    );
  });
});
