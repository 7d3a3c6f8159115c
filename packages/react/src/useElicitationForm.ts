'use client';
import { useCallback, useMemo, useState } from 'react';
import { WaitforError, accept, cancel, decline } from '@waitfor/core';
import type { Answer, Request, RequestData } from '@waitfor/core';
import { formDefaults, formFields, parseFormSchema, validateFormAnswer } from '@waitfor/core/form';
import type { FormField, FormSchema } from '@waitfor/core/form';
import { isRecord } from '@waitfor/runtime';
import { useAnswer } from './useAnswer.js';

/** Options of useElicitationForm. */
export interface ElicitationFormOptions {
  /**
   * Where Answers go; the provider's inbox unless told. Returns whether the Answer settled the
   * Request.
   */
  onAnswer?: (answer: Answer) => boolean;
}

/** The state and actions of one `kind:"input"` Request's form. */
export interface ElicitationFormState {
  /** The fields to render, in schema order; empty when the schema is malformed. */
  fields: readonly FormField[];
  /**
   * What the form shows, seeded with a re-ask's `data.values` over the schema's defaults; a record
   * without prototype, so a field named `constructor` or `__proto__` reads only its own value.
   */
  values: Readonly<Record<string, unknown>>;
  /** Per-field messages from the last accept attempt, at first a re-ask's `data.errors` (no prototype). */
  errors: Readonly<Record<string, string>>;
  /** A re-ask's `data.attempt` (2 for the first re-ask); undefined on a first ask. */
  attempt: number | undefined;
  /** Set when `data.schema` is malformed: the form cannot be accepted, only declined or cancelled. */
  schemaError: Error | undefined;
  /** Changes one field's value and clears that field's stale message (it does not validate). */
  setValue(name: string, value: unknown): void;
  /**
   * Validates what the form shows; on success sends exactly that (a cleared field is left out, an
   * empty required one is an error, never refilled with its default) and returns true.
   */
  accept(): boolean;
  /** Sends a decline Answer without validating. */
  decline(): boolean;
  /** Sends a cancel Answer without validating. */
  cancel(): boolean;
}

type Parsed = { schema: FormSchema; fields: readonly FormField[] } | { error: Error };

interface FormState {
  id: string;
  values: Record<string, unknown>;
  errors: Record<string, string>;
}

function parse(schema: unknown): Parsed {
  try {
    const parsed = parseFormSchema(schema);
    return { schema: parsed, fields: formFields(parsed) };
  } catch (error) {
    // parseFormSchema throws WaitforError; a schema object built in-process (a getter, a Proxy) can
    // throw anything, and the view still needs a message to show.
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

/**
 * A fresh form for one Request. A re-ask (mcp-bridge asks again with a new id after an invalid
 * answer) carries the person's `values` and per-field `errors`: both are untrusted, so only string
 * messages and showable values of known fields are taken.
 */
function seed(request: Request, parsed: Parsed): FormState {
  const state: FormState = { id: request.id, values: ownRecord(), errors: ownRecord() };
  if ('error' in parsed) return state;
  const data: RequestData = request.data ?? {};
  const given = isRecord(data.values) ? data.values : {};
  const messages: Record<string, unknown> = isRecord(data.errors) ? data.errors : {};
  // Defaults are shown before submit, so what is sent is what the person saw.
  state.values = ownRecord(Object.entries(formDefaults(parsed.schema)));
  for (const field of parsed.fields) {
    const { name } = field;
    if (Object.hasOwn(given, name) && fits(field, given[name])) state.values[name] = given[name];
    // A checkbox always shows an answer; for a required boolean that visible "no" is the answer.
    if (field.kind === 'boolean' && field.required && state.values[name] === undefined) {
      state.values[name] = false;
    }
    const message = Object.hasOwn(messages, name) ? messages[name] : undefined;
    if (typeof message === 'string' && message !== '') state.errors[name] = message;
  }
  return state;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * A headless form for a `kind:"input"` Request: fields from `data.schema`, values seeded with a
 * re-ask's `data.values` over the defaults, `data.errors` shown at once, validation on accept
 * only, the person's values kept on error.
 */
export function useElicitationForm(
  request: Request,
  options: ElicitationFormOptions = {},
): ElicitationFormState {
  const answers = useAnswer();
  const send = options.onAnswer ?? answers.answer;
  const schemaSource = request.data?.schema;
  const parsed = useMemo(() => parse(schemaSource), [schemaSource]);
  const [state, setState] = useState(() => seed(request, parsed));
  // Another Request in the same component (a re-ask has a new id) starts a fresh form; the same one
  // keeps what was typed even when its object is re-created.
  const current = state.id === request.id ? state : seed(request, parsed);
  if (current !== state) setState(current);
  const attempt = request.data?.attempt;

  const setValue = useCallback((name: string, value: unknown) => {
    setState((previous) => {
      const values = ownRecord(Object.entries(previous.values));
      values[name] = value;
      const errors = ownRecord(Object.entries(previous.errors).filter(([key]) => key !== name));
      return { ...previous, values, errors };
    });
  }, []);

  const submit = (): boolean => {
    if ('error' in parsed) return false;
    // What is sent is what the form shows. A blank control is "" (no answer), never an absent key:
    // validation then leaves an optional one out and refuses a required one, and fills in no default
    // the person removed.
    const data = ownRecord(Object.entries(current.values).filter(([, value]) => !isEmpty(value)));
    for (const { name } of parsed.fields) if (!Object.hasOwn(data, name)) data[name] = '';
    const result = validateFormAnswer(parsed.schema, data);
    if (!result.ok) {
      setState({ ...current, errors: ownRecord(Object.entries(result.errors)) });
      return false;
    }
    return send(accept(request, result.value));
  };

  return {
    fields: 'error' in parsed ? [] : parsed.fields,
    values: current.values,
    errors: current.errors,
    attempt:
      typeof attempt === 'number' && Number.isSafeInteger(attempt) && attempt > 0
        ? attempt
        : undefined,
    schemaError: 'error' in parsed ? parsed.error : undefined,
    setValue,
    accept: submit,
    decline: () => send(decline(request)),
    cancel: () => send(cancel(request)),
  };
}
