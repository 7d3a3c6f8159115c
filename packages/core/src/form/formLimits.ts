/**
 * Bounds on what parseFormSchema accepts from a server. A schema is untrusted input: without
 * bounds, one huge string or a million choices costs the host memory and time before anyone is
 * asked. Every check here walks the schema once, iteratively (no recursion to overflow), and stops
 * as soon as a bound is passed, so refusing a huge schema costs no more than accepting the limit.
 */
import { fail, isRecord } from '../check';

/** Bounds on a form schema from a server; past any of them, parseFormSchema throws `invalid_schema`. */
export interface FormLimits {
  /** Most properties (fields) in one form. */
  fields: number;
  /** Most choices of one select or multi-select field. */
  choices: number;
  /** Longest string or key anywhere in the schema (titles, descriptions, defaults, choices…), in UTF-16 units. */
  stringLength: number;
  /** Largest schema: the length of every string and key in it, plus one for every value. */
  schemaSize: number;
}

/**
 * The limits a schema is checked against unless the host passes others. Generous for forms a
 * person fills in (the longest real ones have tens of fields and a few hundred choices, such as
 * countries or time zones), small enough that checking the largest accepted schema takes
 * milliseconds: 1,000 fields, 1,000 choices per field, 100,000 characters in one string (a long
 * pre-filled text), 1,000,000 in all (about 1 MB of JSON).
 */
export const defaultFormLimits: Readonly<FormLimits> = Object.freeze({
  fields: 1_000,
  choices: 1_000,
  stringLength: 100_000,
  schemaSize: 1_000_000,
});

/** The options of parseFormSchema. */
export interface FormSchemaOptions {
  /** Limits to use instead of the defaults (`defaultFormLimits`), each on its own. */
  limits?: Partial<FormLimits>;
}

/** The defaults with the host's limits applied; throws `invalid_options` for a limit that is no number >= 0. */
export function resolveFormLimits(options: FormSchemaOptions | undefined): FormLimits {
  const limits = options?.limits;
  if (limits === undefined) return defaultFormLimits;
  if (!isRecord(limits)) fail('invalid_options', 'limits', 'limits must be an object');
  // Copied only when a limit is set: every question of a host on the defaults passes here.
  let resolved: FormLimits | undefined;
  for (const key of Object.keys(limits) as (keyof FormLimits)[]) {
    const value = limits[key];
    if (!Object.hasOwn(defaultFormLimits, key))
      fail('invalid_options', `limits.${key}`, `limits.${key} is no form limit`);
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value >= 0))
      fail('invalid_options', `limits.${key}`, `limits.${key} must be a number >= 0`);
    resolved ??= { ...defaultFormLimits };
    resolved[key] = value;
  }
  return resolved ?? defaultFormLimits;
}

/** What a checked schema measured, so a later call with other limits can tell whether it still fits. */
export interface SchemaMeasure {
  size: number;
  longest: number;
  fields: number;
  choices: number;
}

/** True when a schema that measured `measure` is within `limits`. */
export const fits = (measure: SchemaMeasure, limits: FormLimits): boolean =>
  measure.size <= limits.schemaSize &&
  measure.longest <= limits.stringLength &&
  measure.fields <= limits.fields &&
  measure.choices <= limits.choices;

/** Throws `invalid_schema` naming the limit passed at `path`. */
export function pastLimit(
  path: string,
  what: string,
  limit: string,
  value: number,
  unit: string,
): never {
  return fail(
    'invalid_schema',
    path,
    `${path === '' ? '' : `${path}: `}${what} than the limit ${limit} (${value} ${unit})`,
  );
}

/** One value still to visit; its path is only spelled out when a limit is passed there. */
interface Step {
  value: unknown;
  parent: Step | undefined;
  key: string | number;
}

function pathOf(step: Step): string {
  const keys: (string | number)[] = [];
  for (let at: Step | undefined = step; at?.parent !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * Measures the whole schema (unknown keywords too: they are copied) without serialising it, and
 * throws `invalid_schema` at the first string or key longer than `stringLength` or once the size
 * passes `schemaSize`. Returns the size and the longest string.
 */
export function measureSchema(
  schema: unknown,
  limits: FormLimits,
): { size: number; longest: number } {
  let size = 0;
  let longest = 0;
  const tooLong = (step: Step): never =>
    pastLimit(pathOf(step), 'longer', 'stringLength', limits.stringLength, 'characters');
  const tooLarge = (step: Step): never =>
    pastLimit(pathOf(step), 'larger', 'schemaSize', limits.schemaSize, 'characters');
  const stack: Step[] = [{ value: schema, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const value = step.value;
    size++;
    if (typeof value === 'string') {
      if (value.length > limits.stringLength) tooLong(step);
      if (value.length > longest) longest = value.length;
      size += value.length;
    } else if (Array.isArray(value)) {
      // Each item counts at least one: a huge (or sparse) array is refused before it is walked.
      if (value.length > limits.schemaSize - size) tooLarge(step);
      for (let index = value.length - 1; index >= 0; index--)
        stack.push({ value: value[index], parent: step, key: index });
    } else if (isRecord(value)) {
      const children: Step[] = [];
      // Own keys, hidden ones too: checking reads those.
      for (const key of Object.getOwnPropertyNames(value)) {
        if (key.length > limits.stringLength) tooLong(step);
        if (key.length > longest) longest = key.length;
        size += key.length;
        if (size > limits.schemaSize) tooLarge(step);
        children.push({ value: value[key], parent: step, key });
      }
      // Visited in their order, so the first offender in the schema is the one reported.
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
    }
    if (size > limits.schemaSize) tooLarge(step);
  }
  return { size, longest };
}
