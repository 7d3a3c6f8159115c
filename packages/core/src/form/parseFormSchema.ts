import { fail, isRecord } from '../check';
import { WaitforError } from '../waitforError';
import { checkValue } from './checkValue';
import type { FormField, FormOption, FormSchema, FormValue } from './formTypes';

// Fields of every schema parseFormSchema returned, so checked schemas are never checked twice.
const checkedFields = new WeakMap<object, readonly FormField[]>();

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
  const value = record[key];
  if (value !== undefined && !test(value)) invalid(join(path, key), `expected ${expected}`);
  return value as T | undefined;
}

const isText = (value: unknown): boolean => typeof value === 'string';
const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;
const isFiniteNumber = (value: unknown): boolean => Number.isFinite(value);

/** Reads a pair of bounds (min ≤ max) with the given test. */
function bounds(
  record: Record<string, unknown>,
  path: string,
  [low, high]: [string, string],
  test: (value: unknown) => boolean,
  expected: string,
): Record<string, number> {
  const lower = optional<number>(record, low, path, test, expected);
  const upper = optional<number>(record, high, path, test, expected);
  if (lower !== undefined && upper !== undefined && lower > upper)
    invalid(`${path}.${high}`, `must be >= ${low}`);
  return {
    ...(lower === undefined ? {} : { [low]: lower }),
    ...(upper === undefined ? {} : { [high]: upper }),
  };
}

/** Options from `enum` (+ legacy `enumNames`) or from titled `{const, title}` choices. */
function readOptions(record: Record<string, unknown>, path: string): FormOption[] {
  const choices = record.anyOf ?? record.oneOf;
  let options: FormOption[];
  if (record.enum !== undefined) {
    if (choices !== undefined) invalid(path, 'use either enum or oneOf/anyOf, not both');
    const values = record.enum;
    if (!Array.isArray(values) || !values.every(isText))
      invalid(`${path}.enum`, 'expected an array of strings');
    const names = optional<string[]>(
      record,
      'enumNames',
      path,
      (value) =>
        Array.isArray(value) &&
        value.length === (values as unknown[]).length &&
        value.every(isText),
      'one string per enum value',
    );
    options = (values as string[]).map((value, index) => ({
      value,
      label: names?.[index] ?? value,
    }));
  } else if (Array.isArray(choices)) {
    const key = record.anyOf === undefined ? 'oneOf' : 'anyOf';
    options = choices.map((choice: unknown, index) => {
      if (
        !isRecord(choice) ||
        !isText(choice.const) ||
        !(choice.title === undefined || isText(choice.title))
      ) {
        invalid(`${path}.${key}.${index}`, 'expected {const: string, title?: string}');
      }
      return {
        value: choice.const as string,
        label: (choice.title as string | undefined) ?? (choice.const as string),
      };
    });
  } else {
    return invalid(path, 'expected the choices in enum, oneOf or anyOf');
  }
  if (options.length === 0) invalid(path, 'expected at least one choice');
  if (new Set(options.map((option) => option.value)).size !== options.length)
    invalid(path, 'choices must be unique');
  return options;
}

/** Checks one property schema and normalises it to a field. */
function readField(name: string, property: unknown, required: boolean): FormField {
  const path = `properties.${name}`;
  if (!isRecord(property)) return invalid(path, 'expected a property schema object');
  const title = optional<string>(property, 'title', path, isText, 'a string') ?? name;
  const description = optional<string>(property, 'description', path, isText, 'a string');
  const base = { name, title, required, ...(description === undefined ? {} : { description }) };
  let field: FormField;
  switch (property.type) {
    case 'string':
      field =
        property.enum !== undefined || property.oneOf !== undefined || property.anyOf !== undefined
          ? { ...base, kind: 'select', options: readOptions(property, path) }
          : {
              ...base,
              kind: 'string',
              ...bounds(property, path, ['minLength', 'maxLength'], isCount, 'a whole number >= 0'),
              ...(property.format === undefined
                ? {}
                : { format: optional<string>(property, 'format', path, isText, 'a string') }),
            };
      break;
    case 'number':
    case 'integer':
      field = {
        ...base,
        kind: property.type,
        ...bounds(property, path, ['minimum', 'maximum'], isFiniteNumber, 'a number'),
      };
      break;
    case 'boolean':
      field = { ...base, kind: 'boolean' };
      break;
    case 'array': {
      const items = property.items;
      if (!isRecord(items))
        return invalid(`${path}.items`, 'expected an object listing the choices');
      if (items.type !== undefined && items.type !== 'string') {
        invalid(
          `${path}.items.type`,
          'only arrays of string choices are allowed (no arrays of objects)',
        );
      }
      field = {
        ...base,
        kind: 'multiselect',
        options: readOptions(items, `${path}.items`),
        ...bounds(property, path, ['minItems', 'maxItems'], isCount, 'a whole number >= 0'),
      };
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
  if (property.default !== undefined) {
    const checked = checkValue(field, property.default, false);
    if (typeof checked === 'string')
      invalid(`${path}.default`, `does not fit the property: ${checked}`);
    field.default = (checked as { value: FormValue }).value;
  }
  return field;
}

// A deep copy, frozen, so a checked schema cannot drift from the fields derived from it.
const frozenCopy = (value: unknown): unknown =>
  Object.freeze(
    Array.isArray(value)
      ? value.map(frozenCopy)
      : isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, frozenCopy(item)]))
        : value,
  );

const freezeField = (field: FormField): FormField =>
  Object.freeze({
    ...field,
    ...(field.options
      ? { options: Object.freeze(field.options.map((option) => Object.freeze(option))) }
      : {}),
    ...(Array.isArray(field.default)
      ? { default: Object.freeze(field.default) as unknown as string[] }
      : {}),
  });

/**
 * Checks an untrusted restricted form schema (MCP `requestedSchema`) and returns a deeply frozen copy,
 * or throws WaitforError `invalid_schema` whose `path` names the offending keyword. Every enum shape
 * is accepted; nesting, arrays of objects, unknown `required` names and defaults that do not fit are
 * not. Unknown keywords (e.g. `pattern`, `additionalProperties`) are kept but not honoured.
 */
export function parseFormSchema(value: unknown): FormSchema {
  if (isRecord(value) && checkedFields.has(value)) return value as FormSchema;
  if (!isRecord(value)) return invalid('', 'expected a schema object');
  if (value.type !== 'object')
    invalid('type', 'expected "object" (the root of a form is an object)');
  optional(value, '$schema', '', isText, 'a string');
  optional(value, 'title', '', isText, 'a string');
  optional(value, 'description', '', isText, 'a string');
  const properties = value.properties;
  if (!isRecord(properties)) return invalid('properties', 'expected an object of property schemas');
  const required = value.required ?? [];
  if (!Array.isArray(required)) return invalid('required', 'expected an array of property names');
  required.forEach((name: unknown, index) => {
    if (!isText(name) || !Object.hasOwn(properties, name as string)) {
      invalid(`required.${index}`, 'expected the name of a property');
    }
  });
  const fields = Object.entries(properties).map(([name, property]) =>
    freezeField(readField(name, property, required.includes(name))),
  );
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
  return schema;
}

/** The normalised fields of a schema (checked first when it is raw), in property order. */
export function formFields(schema: FormSchema | unknown): readonly FormField[] {
  return checkedFields.get(parseFormSchema(schema))!;
}
