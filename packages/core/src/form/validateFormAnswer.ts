import { isRecord } from '../check';
import { checkValue } from './checkValue';
import type {
  FormAnswerOptions,
  FormField,
  FormSchema,
  FormValidation,
  FormValue,
} from './formTypes';
import { formFields } from './parseFormSchema';
import { setOwn } from './setOwn';

const copy = (value: FormValue): FormValue => (Array.isArray(value) ? [...value] : value);

// The field names of each checked schema as a Set, made once: searching the fields for every
// submitted key would be quadratic (15,000 fields took seconds).
const nameSets = new WeakMap<readonly FormField[], Set<string>>();

function fieldNames(fields: readonly FormField[]): Set<string> {
  let names = nameSets.get(fields);
  if (names === undefined) {
    names = new Set(fields.map((field) => field.name));
    nameSets.set(fields, names);
  }
  return names;
}

/** The schema's defaults by field name, e.g. to seed a form's values. */
export function formDefaults(schema: FormSchema | unknown): Record<string, FormValue> {
  return Object.fromEntries(
    formFields(schema).flatMap((field) =>
      field.default === undefined ? [] : [[field.name, copy(field.default)]],
    ),
  );
}

/**
 * Validates what a person submitted for a form, coercing form-input strings ("42" → 42, "true" →
 * true, one choice → [choice]). Omitted fields (undefined or null) get their default (unless
 * `options.defaults` is false: then they stay out, or are "Required."); an empty string counts as no
 * answer, so it is dropped from an optional field and is "Required." for a required one. Unknown keys
 * are errors. A raw schema is checked first (throws `invalid_schema`).
 */
export function validateFormAnswer(
  schema: FormSchema | unknown,
  data: unknown,
  options?: FormAnswerOptions,
): FormValidation {
  const fields = formFields(schema);
  const submitted = data ?? {};
  if (!isRecord(submitted))
    return { ok: false, errors: { '': 'Expected an object of field values.' } };
  const useDefaults = options?.defaults !== false;
  const errors: Record<string, string> = {};
  let failed = false;
  const refuse = (name: string, message: string) => {
    setOwn(errors, name, message);
    failed = true;
  };
  const value: Record<string, FormValue> = {};
  const names = fieldNames(fields);
  for (const key of Object.keys(submitted)) {
    if (submitted[key] !== undefined && !names.has(key)) refuse(key, 'Unknown field.');
  }
  for (const field of fields) {
    // Own keys only: a field named "constructor" must not read Object.prototype.constructor.
    const input = Object.hasOwn(submitted, field.name) ? submitted[field.name] : undefined;
    if (input === '' || (input == null && (field.default === undefined || !useDefaults))) {
      if (field.required) refuse(field.name, 'Required.');
    } else if (input == null) {
      setOwn(value, field.name, copy(field.default!));
    } else {
      const checked = checkValue(field, input, true);
      if (typeof checked === 'string') refuse(field.name, checked);
      else setOwn(value, field.name, checked.value);
    }
  }
  return failed ? { ok: false, errors } : { ok: true, value };
}

/** An answer with data is taken as given: no default is filled in behind the person's back. */
const asGiven: FormAnswerOptions = { defaults: false };

/**
 * Validates the `data` of an accept Answer for a form: the one rule every place that takes a form
 * answer follows, so none accepts what another refuses. No data (`accept(request)`, undefined or
 * null) takes the schema's defaults; data is taken as given (`{ defaults: false }`): an omitted
 * field is not filled with its default, and an omitted required field is "Required." even when it
 * has one. A raw schema is checked first (throws `invalid_schema`).
 */
export function validateAnswerData(schema: FormSchema | unknown, data: unknown): FormValidation {
  return data == null ? validateFormAnswer(schema, {}) : validateFormAnswer(schema, data, asGiven);
}
