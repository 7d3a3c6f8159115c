'use client';
import { useState, useSyncExternalStore } from 'react';
import { cancel, decline } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import { createFormSession } from '@waitfor/core/form';
import type { FormField } from '@waitfor/core/form';
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

/**
 * A headless form for a `kind:"input"` Request, over core's form session: fields from
 * `data.schema`, values seeded with a re-ask's `data.values` over the defaults, `data.errors` shown
 * at once, validation on accept only, the person's values kept on error.
 */
export function useElicitationForm(
  request: Request,
  options: ElicitationFormOptions = {},
): ElicitationFormState {
  const answers = useAnswer();
  const send = options.onAnswer ?? answers.answer;
  const [held, setHeld] = useState(() => createFormSession(request));
  // Another Request in the same component (a re-ask has a new id) starts a fresh form; the same one
  // keeps what was typed even when its object is re-created.
  const session = held.request.id === request.id ? held : createFormSession(request);
  if (session !== held) setHeld(session);
  // The snapshot is also the server's: a form renders the same before and after hydration.
  const { values, errors } = useSyncExternalStore(
    session.subscribe,
    session.getSnapshot,
    session.getSnapshot,
  );

  return {
    fields: session.fields,
    values,
    errors,
    attempt: session.attempt,
    schemaError: session.schemaError,
    setValue: session.setValue,
    accept: () => {
      const answer = session.submit();
      return answer !== undefined && send(answer);
    },
    decline: () => send(decline(request)),
    cancel: () => send(cancel(request)),
  };
}
