import { describe, expect, it } from 'vitest';
import { formDefaults, formFields, parseFormSchema, validateFormAnswer } from '@waitfor/core/form';
import { WaitforError } from '@waitfor/core';

// Names Object.prototype already has. JSON.parse (what a server's schema and a form's answer come
// through) makes each an own key, "__proto__" included.
const inherited = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  'toLocaleString',
];

/** A schema with one field of every kind, each named `${name}` plus a suffix, parsed from JSON. */
function schemaFor(name: string): unknown {
  const json = JSON.stringify({
    type: 'object',
    properties: {
      [name]: { type: 'string', default: 'text' },
      [`${name}n`]: { type: 'integer', default: 1 },
      [`${name}b`]: { type: 'boolean', default: true },
      [`${name}s`]: { type: 'string', enum: [name, 'b'], default: name },
      [`${name}m`]: { type: 'array', items: { enum: [name, 'b'] }, default: [name] },
    },
    required: [name, `${name}n`],
  });
  return JSON.parse(json) as unknown;
}

const plainRecord = (value: object) =>
  [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null);

describe.each(inherited)('a field named %s is an ordinary own field', (name) => {
  it('parses, with its own defaults', () => {
    const fields = formFields(schemaFor(name));
    expect(fields.map((field) => field.name)).toEqual([
      name,
      `${name}n`,
      `${name}b`,
      `${name}s`,
      `${name}m`,
    ]);
    expect(fields[0]).toMatchObject({ name, kind: 'string', required: true, default: 'text' });
    const defaults = formDefaults(schemaFor(name));
    expect(plainRecord(defaults)).toBe(true);
    expect(Object.keys(defaults)).toEqual([name, `${name}n`, `${name}b`, `${name}s`, `${name}m`]);
    expect(Object.hasOwn(defaults, name)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(defaults, name)?.value).toBe('text');
  });

  it('validates and coerces its value, and fills its default', () => {
    const answer = JSON.parse(
      JSON.stringify({ [name]: 'typed', [`${name}n`]: '42', [`${name}m`]: 'b' }),
    ) as unknown;
    const result = validateFormAnswer(schemaFor(name), answer);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.value)).toEqual([
      name,
      `${name}n`,
      `${name}b`,
      `${name}s`,
      `${name}m`,
    ]);
    expect(Object.getOwnPropertyDescriptor(result.value, name)?.value).toBe('typed');
    expect(Object.getOwnPropertyDescriptor(result.value, `${name}n`)?.value).toBe(42);
    expect(Object.getOwnPropertyDescriptor(result.value, `${name}s`)?.value).toBe(name);
    expect(Object.getOwnPropertyDescriptor(result.value, `${name}m`)?.value).toEqual(['b']);
  });

  it('reports its errors under its own name', () => {
    // An empty string is no answer, so the default does not fill it in.
    const result = validateFormAnswer(
      schemaFor(name),
      JSON.parse(`{"${name}": "", "${name}n": "x"}`),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(plainRecord(result.errors)).toBe(true);
    expect(Object.keys(result.errors)).toEqual([name, `${name}n`]);
    expect(Object.getOwnPropertyDescriptor(result.errors, name)?.value).toBe('Required.');
  });

  it('is refused as unknown when the schema has no such field', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const result = validateFormAnswer(schema, JSON.parse(`{"${name}": "x"}`));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors)).toEqual([name]);
    expect(Object.getOwnPropertyDescriptor(result.errors, name)?.value).toBe('Unknown field.');
  });

  it('is refused as a choice, required name or format the schema does not have', () => {
    const select = { type: 'object', properties: { a: { type: 'string', enum: ['x'] } } };
    expect(validateFormAnswer(select, { a: name })).toEqual({
      ok: false,
      errors: { a: 'Choose one of the options.' },
    });
    const multi = { type: 'object', properties: { a: { type: 'array', items: { enum: ['x'] } } } };
    expect(validateFormAnswer(multi, { a: [name] })).toEqual({
      ok: false,
      errors: { a: 'Choose only from the options.' },
    });
    expect(() => parseFormSchema({ type: 'object', properties: {}, required: [name] })).toThrow(
      expect.objectContaining({ code: 'invalid_schema', path: 'required.0' }),
    );
    const format = { type: 'object', properties: { a: { type: 'string', format: name } } };
    expect(validateFormAnswer(format, { a: 'anything' }).ok).toBe(true);
  });
});

describe('keywords are read from own keys only', () => {
  it('does not take a keyword from a schema object prototype', () => {
    const property = Object.create({ default: 'inherited', maxLength: 1 }) as object;
    Object.assign(property, { type: 'string' });
    const [field] = formFields({ type: 'object', properties: { a: property } });
    expect(field?.default).toBeUndefined();
    expect(field?.maxLength).toBeUndefined();
    const root = Object.create({ required: ['a'] }) as object;
    Object.assign(root, { type: 'object', properties: { a: { type: 'string' } } });
    expect(formFields(root)[0]?.required).toBe(false);
    const items = Object.create({ enum: ['x'] }) as object;
    expect(() =>
      parseFormSchema({ type: 'object', properties: { a: { type: 'array', items } } }),
    ).toThrow(WaitforError);
  });
});
