'use client';
import { useCallback, useMemo, useState } from 'react';
import { accept, cancel, decline } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import { formDefaults, formFields, parseFormSchema, validateFormAnswer } from '@waitfor/core/form';
import type { FormField, FormSchema } from '@waitfor/core/form';
import { useAnswer } from './useAnswer.js';
import { WaitforReactError } from './waitforReactError.js';

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
  /** What the person entered so far, seeded with the schema's defaults. */
  values: Readonly<Record<string, unknown>>;
  /** Per-field messages from the last accept attempt. */
  errors: Readonly<Record<string, string>>;
  /** Set when `data.schema` is malformed: the form cannot be accepted, only declined or cancelled. */
  schemaError: Error | undefined;
  /** Changes one field's value and clears that field's stale message (it does not validate). */
  setValue(name: string, value: unknown): void;
  /** Validates; on success sends the accept Answer and returns true, else keeps values, sets errors. */
  accept(): boolean;
  /** Sends a decline Answer without validating. */
  decline(): boolean;
  /** Sends a cancel Answer without validating. */
  cancel(): boolean;
}

type Parsed = { schema: FormSchema; fields: readonly FormField[] } | { error: Error };

function parse(schema: unknown): Parsed {
  try {
    const parsed = parseFormSchema(schema);
    return { schema: parsed, fields: formFields(parsed) };
  } catch (error) {
    return {
      error:
        error instanceof Error
          ? error
          : new WaitforReactError('invalid_schema', 'The form schema is malformed.', {
              cause: error,
            }),
    };
  }
}

function seed(parsed: Parsed): Record<string, unknown> {
  if ('error' in parsed) return {};
  const values: Record<string, unknown> = { ...formDefaults(parsed.schema) };
  // A checkbox always shows an answer; for a required boolean that visible "no" is the answer.
  for (const field of parsed.fields) {
    if (field.kind === 'boolean' && field.required && values[field.name] === undefined) {
      values[field.name] = false;
    }
  }
  return values;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

/**
 * A headless form for a `kind:"input"` Request: fields from `data.schema`, values seeded with
 * defaults, validation on accept only, the person's values kept on error.
 */
export function useElicitationForm(
  request: Request,
  options: ElicitationFormOptions = {},
): ElicitationFormState {
  const answers = useAnswer();
  const send = options.onAnswer ?? answers.answer;
  const schemaSource = request.data?.schema;
  const parsed = useMemo(() => parse(schemaSource), [schemaSource]);
  const [state, setState] = useState(() => ({
    id: request.id,
    values: seed(parsed),
    errors: {} as Record<string, string>,
  }));
  // Another Request in the same component starts a fresh form; the same one keeps what was typed
  // even when its object is re-created.
  const current =
    state.id === request.id ? state : { id: request.id, values: seed(parsed), errors: {} };
  if (current !== state) setState(current);

  const setValue = useCallback((name: string, value: unknown) => {
    setState((previous) => {
      const { [name]: _stale, ...errors } = previous.errors;
      return { ...previous, values: { ...previous.values, [name]: value }, errors };
    });
  }, []);

  const submit = (): boolean => {
    if ('error' in parsed) return false;
    // Blank controls mean "not answered": leave them out so `required` and defaults apply.
    const data = Object.fromEntries(
      Object.entries(current.values).filter(([, value]) => !isEmpty(value)),
    );
    const result = validateFormAnswer(parsed.schema, data);
    if (!result.ok) {
      setState({ ...current, errors: result.errors });
      return false;
    }
    return send(accept(request, result.value));
  };

  return {
    fields: 'error' in parsed ? [] : parsed.fields,
    values: current.values,
    errors: current.errors,
    schemaError: 'error' in parsed ? parsed.error : undefined,
    setValue,
    accept: submit,
    decline: () => send(decline(request)),
    cancel: () => send(cancel(request)),
  };
}
