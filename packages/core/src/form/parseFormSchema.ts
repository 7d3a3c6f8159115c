import { setOwn } from './setOwn';
import { fail, isRecord } from '../check';
import { WaitforError } from '../waitforError';
import { checkValue } from './checkValue';
import {
  fits,
  measureSchema,
  pastLimit,
  resolveFormLimits,
  type FormLimits,
  type FormSchemaOptions,
  type SchemaMeasure,
} from './formLimits';
import type { FormField, FormOption, FormSchema, FormValue } from './formTypes';

// Fields of every schema parseFormSchema returned, so checked schemas are never checked twice.
const checkedFields = new WeakMap<object, readonly FormField[]>();
// What each checked schema measured, so a call with lower limits than its first still applies them.
const measures = new WeakMap<object, SchemaMeasure>();

/**
 * A keyword's value, read from the record's own keys only: a keyword on a prototype is no keyword
 * of the schema (nor copied with it), and a field named "constructor" never finds Object.prototype.
 */
const own = (record: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(record, key) ? record[key] : undefined;

function invalid(path: string, message: string): never {
  return fail('invalid_schema', path, path === '' ? message : `${path}: ${message}`);
}

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** Reads an optional key that must satisfy `test`. */
function optional<T>(
  record: Record<string, unknown>,
  key: string,
  path: string,
  test: (value: unknown) => boolean,
  expected: string,
): T | undefined {
  const value = own(record, key);
  if (value !== undefined && !test(value)) invalid(join(path, key), `expected ${expected}`);
  return value as T | undefined;
}

const isText = (value: unknown): boolean => typeof value === 'string';
/** An array of strings; a hole is no string (`every` would skip it). */
function isTextArray(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let index = 0; index < value.length; index++) if (!isText(value[index])) return false;
  return true;
}
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isFiniteNumber = (value: unknown): boolean => Number.isFinite(value);

/** Copies a pair of bounds (min ≤ max) that pass `test` onto `field`. */
function bounds(
  field: FormField,
  record: Record<string, unknown>,
  path: string,
  low: 'minLength' | 'minimum' | 'minItems',
  high: 'maxLength' | 'maximum' | 'maxItems',
  test: (value: unknown) => boolean,
  expected: string,
): void {
  const lower = optional<number>(record, low, path, test, expected);
  const upper = optional<number>(record, high, path, test, expected);
  if (lower !== undefined && upper !== undefined && lower > upper)
    invalid(`${path}.${high}`, `must be >= ${low}`);
  if (lower !== undefined) field[low] = lower;
  if (upper !== undefined) field[high] = upper;
}

/** Refuses a list of more choices than the limit, before any of them is read. */
function countChoices(list: unknown, path: string, limits: FormLimits): void {
  if (Array.isArray(list) && list.length > limits.choices)
    pastLimit(path, 'more', 'choices', limits.choices, 'choices');
}

/** Options from `enum` (+ legacy `enumNames`) or from titled `{const, title}` choices, frozen. */
function readOptions(
  record: Record<string, unknown>,
  path: string,
  limits: FormLimits,
): readonly FormOption[] {
  const anyOf = own(record, 'anyOf');
  const oneOf = own(record, 'oneOf');
  const values = own(record, 'enum');
  // Both would be two lists of choices, and nothing says which one the server means.
  if (anyOf !== undefined && oneOf !== undefined)
    invalid(path, 'use either oneOf or anyOf, not both');
  const choices = anyOf ?? oneOf;
  const options: FormOption[] = [];
  if (values !== undefined) {
    if (choices !== undefined) invalid(path, 'use either enum or oneOf/anyOf, not both');
    if (!isTextArray(values)) invalid(`${path}.enum`, 'expected an array of strings');
    countChoices(values, `${path}.enum`, limits);
    const names = optional<string[]>(
      record,
      'enumNames',
      path,
      (value) => isTextArray(value) && value.length === values.length,
      'one string per enum value',
    );
    for (let index = 0; index < values.length; index++) {
      const value = values[index]!;
      options.push(Object.freeze({ value, label: names?.[index] ?? value }));
    }
  } else if (Array.isArray(choices)) {
    const key = anyOf === undefined ? 'oneOf' : 'anyOf';
    countChoices(choices, `${path}.${key}`, limits);
    for (let index = 0; index < choices.length; index++) {
      const choice: unknown = choices[index];
      const value = isRecord(choice) ? own(choice, 'const') : undefined;
      const title = isRecord(choice) ? own(choice, 'title') : undefined;
      if (!isText(value) || !(title === undefined || isText(title)))
        invalid(`${path}.${key}.${index}`, 'expected {const: string, title?: string}');
      options.push(
        Object.freeze({
          value: value as string,
          label: (title as string | undefined) ?? (value as string),
        }),
      );
    }
  } else {
    return invalid(path, 'expected the choices in enum, oneOf or anyOf');
  }
  if (options.length === 0) invalid(path, 'expected at least one choice');
  const seen = new Set<string>();
  for (const option of options) seen.add(option.value);
  if (seen.size !== options.length) invalid(path, 'choices must be unique');
  return Object.freeze(options);
}

const wholeNumber = 'a whole number >= 0';
const safe = Number.MAX_SAFE_INTEGER;

/** Refuses integer bounds that no answer can meet: answers are whole and within ±MAX_SAFE_INTEGER. */
function wholeNumbersBetween(field: FormField, path: string): void {
  const lowest = Math.ceil(field.minimum ?? -safe);
  const highest = Math.floor(field.maximum ?? safe);
  if (lowest > safe) invalid(`${path}.minimum`, `must be at most ${safe} for an integer`);
  if (highest < -safe) invalid(`${path}.maximum`, `must be at least ${-safe} for an integer`);
  if (lowest > highest)
    invalid(`${path}.maximum`, 'leaves no whole number between minimum and maximum');
}

/**
 * Checks one property schema and normalises it to a field, frozen. Built by assignment in a fixed
 * key order rather than by spreading: this runs for every property of every question asked.
 */
function readField(
  name: string,
  property: unknown,
  required: boolean,
  limits: FormLimits,
): FormField {
  const path = `properties.${name}`;
  if (!isRecord(property)) return invalid(path, 'expected a property schema object');
  const title = optional<string>(property, 'title', path, isText, 'a string') ?? name;
  const description = optional<string>(property, 'description', path, isText, 'a string');
  const field = { name, title, required } as FormField;
  if (description !== undefined) field.description = description;
  const type = own(property, 'type');
  switch (type) {
    case 'string':
      if (
        own(property, 'enum') !== undefined ||
        own(property, 'oneOf') !== undefined ||
        own(property, 'anyOf') !== undefined
      ) {
        field.kind = 'select';
        field.options = readOptions(property, path, limits);
      } else {
        field.kind = 'string';
        bounds(field, property, path, 'minLength', 'maxLength', isCount, wholeNumber);
        // An empty string is no answer, so a required field must take at least one character.
        if (required && field.maxLength === 0)
          invalid(`${path}.maxLength`, 'must be at least 1 for a required property');
        if (own(property, 'format') !== undefined)
          field.format = optional<string>(property, 'format', path, isText, 'a string');
      }
      break;
    case 'number':
    case 'integer':
      field.kind = type;
      bounds(field, property, path, 'minimum', 'maximum', isFiniteNumber, 'a number');
      if (field.kind === 'integer') wholeNumbersBetween(field, path);
      break;
    case 'boolean':
      field.kind = 'boolean';
      break;
    case 'array': {
      const items = own(property, 'items');
      if (!isRecord(items))
        return invalid(`${path}.items`, 'expected an object listing the choices');
      const itemType = own(items, 'type');
      if (itemType !== undefined && itemType !== 'string') {
        invalid(
          `${path}.items.type`,
          'only arrays of string choices are allowed (no arrays of objects)',
        );
      }
      field.kind = 'multiselect';
      field.options = readOptions(items, `${path}.items`, limits);
      bounds(field, property, path, 'minItems', 'maxItems', isCount, wholeNumber);
      // Each choice may be picked once.
      if ((field.minItems ?? 0) > field.options.length)
        invalid(
          `${path}.minItems`,
          `must be at most the number of choices (${field.options.length})`,
        );
      break;
    }
    case 'object':
      return invalid(path, 'nested objects are not allowed');
    default:
      return invalid(
        `${path}.type`,
        'expected "string", "number", "integer", "boolean" or "array"',
      );
  }
  const fallback = own(property, 'default');
  if (fallback !== undefined) {
    const checked = checkValue(field, fallback, false);
    if (typeof checked === 'string')
      invalid(`${path}.default`, `does not fit the property: ${checked}`);
    const value = (checked as { value: FormValue }).value;
    field.default = Array.isArray(value) ? (Object.freeze(value) as string[]) : value;
  }
  return Object.freeze(field);
}

/** A deep copy, frozen, so a checked schema cannot drift from the fields derived from it. */
function frozenCopy(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  if (!isRecord(value)) return Object.freeze(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    setOwn(copy, key, frozenCopy(value[key]));
  }
  return Object.freeze(copy);
}

/**
 * Checks an untrusted restricted form schema (MCP `requestedSchema`) and returns a deeply frozen copy,
 * or throws WaitforError `invalid_schema` whose `path` names the offending keyword. Every enum shape
 * is accepted; nesting, arrays of objects, unknown `required` names and defaults that do not fit are
 * not, nor is a schema past `options.limits` (`defaultFormLimits` unless given; a limit that is no
 * number >= 0 throws `invalid_options`). Unknown keywords (e.g. `pattern`) are kept, not honoured.
 */
export function parseFormSchema(value: unknown, options?: FormSchemaOptions): FormSchema {
  const limits = resolveFormLimits(options);
  if (!isRecord(value)) return invalid('', 'expected a schema object');
  // A schema checked before (a copy this function made) is only taken as it is when it also fits
  // this call's limits; any other object is checked in full, every time.
  if (checkedFields.has(value) && fits(measures.get(value)!, limits)) return value as FormSchema;
  const { size, longest } = measureSchema(value, limits);
  if (own(value, 'type') !== 'object')
    invalid('type', 'expected "object" (the root of a form is an object)');
  optional(value, '$schema', '', isText, 'a string');
  optional(value, 'title', '', isText, 'a string');
  optional(value, 'description', '', isText, 'a string');
  const properties = own(value, 'properties');
  if (!isRecord(properties)) return invalid('properties', 'expected an object of property schemas');
  const names = Object.keys(properties);
  if (names.length > limits.fields)
    pastLimit('properties', 'more', 'fields', limits.fields, 'properties');
  const required = own(value, 'required') ?? [];
  if (!Array.isArray(required)) return invalid('required', 'expected an array of property names');
  // A Set: looking each property up in the list would be quadratic in the number of properties.
  const requiredNames = new Set<string>();
  for (let index = 0; index < required.length; index++) {
    const name: unknown = required[index];
    if (!isText(name) || !Object.hasOwn(properties, name as string))
      invalid(
        `required.${index}`,
        // Named (its start): a client SDK that dropped a property on the way in is told which.
        isText(name)
          ? `${JSON.stringify((name as string).slice(0, 64))} is not one of the properties`
          : 'expected the name of a property',
      );
    requiredNames.add(name as string);
  }
  const fields: FormField[] = [];
  let choices = 0;
  for (const name of names) {
    const field = readField(name, properties[name], requiredNames.has(name), limits);
    fields.push(field);
    if (field.options !== undefined && field.options.length > choices)
      choices = field.options.length;
  }
  let schema: FormSchema;
  try {
    schema = frozenCopy(value) as FormSchema;
  } catch (error) {
    // Only unknown keywords are copied without a check; nesting deep enough to overflow the stack.
    throw new WaitforError('invalid_schema', 'The schema is nested too deeply', {
      path: '',
      cause: error,
    });
  }
  checkedFields.set(schema, Object.freeze(fields));
  measures.set(schema, { size, longest, fields: fields.length, choices });
  return schema;
}

/** The normalised fields of a schema (checked first when it is raw), in property order. */
export function formFields(schema: FormSchema | unknown): readonly FormField[] {
  // A checked schema is found at once (WeakMap.get takes any key); a raw one is checked first.
  return checkedFields.get(schema as object) ?? checkedFields.get(parseFormSchema(schema))!;
}
