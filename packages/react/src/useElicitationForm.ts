'use client';
import { useMemo, useState, useSyncExternalStore } from 'react';
import { cancel, decline } from '@waitfor/core';
import type { Answer, Request } from '@waitfor/core';
import type { FormField } from '@waitfor/core/form';
import { useAnswerFailure } from './answerFailure.js';
import { rememberedForm } from './formMemory.js';
import { useAnswer } from './useAnswer.js';
import { useInbox } from './WaitforProvider.js';

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
  /**
   * Per-field messages from the last accept attempt, at first a re-ask's `data.errors`, and the
   * server's own for an answer it refused (until that field is changed); no prototype.
   */
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
 * at once, validation on accept only, the person's values kept on error. The form is remembered
 * per inbox and question, so one that leaves while its answer is sent and comes back refused
 * (a remote inbox) still holds what was typed, with the server's field errors on their fields.
 */
export function useElicitationForm(
  request: Request,
  options: ElicitationFormOptions = {},
): ElicitationFormState {
  const inbox = useInbox();
  const answers = useAnswer();
  const send = options.onAnswer ?? answers.answer;
  const [held, setHeld] = useState(() => rememberedForm(inbox, request));
  // Another Request in the same component (a re-ask has a new id) starts a fresh form; the same one
  // keeps what was typed even when its object is re-created.
  const session = held.request.id === request.id ? held : rememberedForm(inbox, request);
  if (session !== held) setHeld(session);
  // The snapshot is also the server's: a form renders the same before and after hydration.
  const { values, errors: checked } = useSyncExternalStore(
    session.subscribe,
    session.getSnapshot,
    session.getSnapshot,
  );
  const failure = useAnswerFailure(request.id);
  const refused = failure?.code === 'invalid_form' ? failure.errors : undefined;
  // The fields changed since the server refused: their server message is stale.
  const [changed, setChanged] = useState<{ of: unknown; names: ReadonlySet<string> }>({
    of: undefined,
    names: new Set(),
  });
  const errors = useMemo(() => {
    if (refused === undefined) return checked;
    const merged: Record<string, string> = Object.create(null);
    for (const { name } of session.fields) {
      const server = Object.hasOwn(refused, name) ? refused[name] : undefined;
      const stale = changed.of === refused && changed.names.has(name);
      const message = Object.hasOwn(checked, name) ? checked[name] : stale ? undefined : server;
      if (message !== undefined) merged[name] = message;
    }
    return merged;
  }, [checked, refused, changed, session.fields]);

  return {
    fields: session.fields,
    values,
    errors,
    attempt: session.attempt,
    schemaError: session.schemaError,
    setValue(name, value) {
      session.setValue(name, value);
      if (refused !== undefined && Object.hasOwn(refused, name))
        setChanged((before) => ({
          of: refused,
          names: new Set(before.of === refused ? before.names : []).add(name),
        }));
    },
    accept: () => {
      const answer = session.submit();
      return answer !== undefined && send(answer);
    },
    decline: () => send(decline(request)),
    cancel: () => send(cancel(request)),
  };
}
