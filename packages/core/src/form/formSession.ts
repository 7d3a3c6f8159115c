import { createListeners } from '@waitfor/runtime';
import { accept } from '../answers';
import { isRecord } from '../check';
import type { Answer, Request } from '../types';
import { listenerReport, WaitforError } from '../waitforError';
import type { FieldErrors } from '../waitforError';
import { resolveFormLimits } from './formLimits';
import type { FormSchemaOptions } from './formLimits';
import type { FormField, FormSchema, FormValidation } from './formTypes';
import { formFields, parseFormSchema } from './parseFormSchema';
import { formDefaults, validateFormAnswer } from './validateFormAnswer';

/** What a form shows at one moment; a new object after every change, so a UI can compare. */
export interface FormSnapshot {
  /**
   * What the form shows, seeded with a re-ask's `data.values` over the schema's defaults; a record
   * without prototype, so a field named `constructor` or `__proto__` reads only its own value.
   */
  readonly values: Readonly<Record<string, unknown>>;
  /** Per-field messages from the last submit, at first a re-ask's `data.errors` (no prototype). */
  readonly errors: FieldErrors;
  /** The fields the person changed since the form was shown. */
  readonly touched: ReadonlySet<string>;
}

/** A framework-free form for one `kind:"input"` Request: its state, and how a UI changes it. */
export interface FormSession {
  /** The Request this form answers. */
  readonly request: Request;
  /** The fields to show, in schema order; empty when the schema is malformed. */
  readonly fields: readonly FormField[];
  /** Set when `data.schema` is malformed: the form cannot be submitted, only declined or cancelled. */
  readonly schemaError: Error | undefined;
  /** A re-ask's `data.attempt` (2 for the first re-ask); undefined on a first ask. */
  readonly attempt: number | undefined;
  /** The current snapshot; the same object until something changes. */
  getSnapshot(): FormSnapshot;
  /**
   * Calls `listener` after every change; returns the function that stops. A listener that throws
   * stops neither the others nor the change: its error is reported (`onError`).
   */
  subscribe(listener: () => void): () => void;
  /** Changes one field's value and clears its stale message (no validation); other names are ignored. */
  setValue(name: string, value: unknown): void;
  /**
   * Checks what the form shows as submit would, changing nothing: a UI that checks each field as it
   * is entered reads that field's message here.
   */
  validate(): FormValidation;
  /**
   * Validates what the form shows. On success returns the accept Answer carrying exactly that (a
   * cleared field left out, an empty required one an error, never refilled with its default);
   * otherwise keeps the values, shows the messages and returns undefined.
   */
  submit(): Answer | undefined;
}

/** Options of createFormSession: the schema's limits, and where a throwing listener is reported. */
export interface FormSessionOptions extends FormSchemaOptions {
  /**
   * Receives a WaitforError `listener_failed` (what the listener threw as `cause`) for each
   * subscribed listener that throws; by default the platform's `reportError`, or `console.error`.
   */
  onError?: (error: WaitforError) => void;
}

type Parsed = { schema: FormSchema; fields: readonly FormField[] } | { error: Error };

function parse(schema: unknown, options: FormSchemaOptions | undefined): Parsed {
  try {
    const parsed = parseFormSchema(schema, options);
    return { schema: parsed, fields: formFields(parsed) };
  } catch (error) {
    // parseFormSchema throws WaitforError; a schema object built in-process (a getter, a Proxy) can
    // throw anything, and a UI still needs a message to show.
    return {
      error:
        error instanceof Error
          ? error
          : new WaitforError('invalid_schema', 'The form schema cannot be read', { cause: error }),
    };
  }
}

// Field names come from the server: in a record without prototype, "__proto__" or "constructor" is
// an ordinary key, never Object.prototype or its members.
function ownRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) record[key] = value;
  return record;
}

// Only a value its control shows exactly: what is sent must be what the person sees.
function fits(field: FormField, value: unknown): boolean {
  const choice = (each: unknown) => field.options?.some((option) => option.value === each) === true;
  if (field.kind === 'boolean') return typeof value === 'boolean';
  if (field.kind === 'select') return choice(value);
  if (field.kind === 'multiselect') return Array.isArray(value) && value.every(choice);
  return typeof value === 'string' || Number.isFinite(value);
}

// No answer: nothing there, or a blank control. An empty list is an answer, "none of these" (a UI
// whose control cannot say "none", such as a checkbox group, sets "" when no box is checked).
const isEmpty = (value: unknown): boolean => value === undefined || value === '';

/**
 * The first snapshot. A re-ask (mcp-bridge asks again with a new id after an invalid answer) carries
 * the person's `values` and per-field `errors`: both are untrusted, so only string messages and
 * showable values of known fields are taken.
 */
function seed(request: Request, parsed: Parsed): FormSnapshot {
  const values = ownRecord<unknown>();
  const errors = ownRecord<string>();
  const snapshot = { values, errors, touched: new Set<string>() };
  if ('error' in parsed) return snapshot;
  const data = request.data ?? {};
  const given = isRecord(data.values) ? data.values : {};
  const messages: Record<string, unknown> = isRecord(data.errors) ? data.errors : {};
  // Defaults are shown before submit, so what is sent is what the person saw.
  const defaults = formDefaults(parsed.schema);
  for (const field of parsed.fields) {
    const { name } = field;
    if (Object.hasOwn(defaults, name)) values[name] = defaults[name];
    if (Object.hasOwn(given, name) && fits(field, given[name])) values[name] = given[name];
    // A checkbox always shows an answer; for a required boolean that visible "no" is the answer.
    if (field.kind === 'boolean' && field.required && values[name] === undefined) {
      values[name] = false;
    }
    const message = Object.hasOwn(messages, name) ? messages[name] : undefined;
    if (typeof message === 'string' && message !== '') errors[name] = message;
  }
  return snapshot;
}

/**
 * Starts a form for a `kind:"input"` Request: fields from `data.schema` (read with `options`'
 * limits), values seeded with a re-ask's `data.values` over the defaults, `data.errors` shown at
 * once, validation on submit only, the person's values kept on error.
 */
export function createFormSession(request: Request, options?: FormSessionOptions): FormSession {
  // The host's own options are checked first: a bad limit throws, it is not the server's schemaError.
  resolveFormLimits(options);
  const parsed = parse(request.data?.schema, options);
  const fields = 'error' in parsed ? [] : parsed.fields;
  const names = new Set(fields.map((field) => field.name));
  const listeners = createListeners(listenerReport(options?.onError));
  let snapshot = seed(request, parsed);
  const attempt = request.data?.attempt;

  const validate = (): FormValidation => {
    if ('error' in parsed) return { ok: false, errors: { '': parsed.error.message } };
    // What is sent is what the form shows. A blank control is "" (no answer), never an absent key:
    // validation then leaves an optional one out and refuses a required one, and fills in no
    // default the person removed.
    const data = ownRecord<unknown>();
    for (const { name } of fields) {
      const value = snapshot.values[name];
      data[name] = isEmpty(value) ? '' : value;
    }
    return validateFormAnswer(parsed.schema, data);
  };

  const change = (next: FormSnapshot) => {
    snapshot = next;
    listeners.emit();
  };

  return {
    request,
    fields,
    schemaError: 'error' in parsed ? parsed.error : undefined,
    attempt:
      typeof attempt === 'number' && Number.isSafeInteger(attempt) && attempt > 0
        ? attempt
        : undefined,
    getSnapshot: () => snapshot,
    // Each call its own subscription: the same function subscribed twice is two, as in React.
    subscribe: listeners.add,
    setValue(name, value) {
      if (!names.has(name)) return;
      const values = ownRecord(Object.entries(snapshot.values));
      values[name] = value;
      const errors = ownRecord(Object.entries(snapshot.errors).filter(([key]) => key !== name));
      change({ values, errors, touched: new Set(snapshot.touched).add(name) });
    },
    validate,
    submit() {
      if ('error' in parsed) return undefined;
      const result = validate();
      if (!result.ok) {
        change({ ...snapshot, errors: ownRecord(Object.entries(result.errors)) });
        return undefined;
      }
      if (Object.keys(snapshot.errors).length > 0) change({ ...snapshot, errors: ownRecord() });
      return accept(request, result.value);
    },
  };
}
