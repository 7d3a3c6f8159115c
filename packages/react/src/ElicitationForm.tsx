'use client';
import { useEffect, useId, useRef, useState } from 'react';
import type { Request } from '@waitfor/core';
import { ActionButton } from './ActionButton.js';
import { FormFieldControl } from './FormFieldControl.js';
import { useLocalization } from './localization.js';
import { RequestFrame } from './RequestFrame.js';
import { useElicitationForm } from './useElicitationForm.js';
import { useRequestView } from './useRequestView.js';

/** Props of ElicitationForm. */
export interface ElicitationFormProps {
  /** A `kind:"input"` Request whose `data.schema` describes the form. */
  request: Request;
  className?: string;
}

// Field names come from the server: "constructor" must never read Object.prototype.constructor.
const own = <T,>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * An unstyled form for a `kind:"input"` Request: every field kind as a labelled native control,
 * errors announced, and Accept / Decline / Cancel. A re-ask shows the person's last values, the
 * refused fields' messages and its attempt number.
 */
export function ElicitationForm({ request, className }: ElicitationFormProps) {
  const { text, number, fieldError } = useLocalization();
  const view = useRequestView(request);
  const form = useElicitationForm(request, { onAnswer: view.settle });
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [refusals, setRefusals] = useState(0);

  // After a refused accept, move keyboard focus to the first field that needs attention.
  useEffect(() => {
    if (refusals === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  return (
    <RequestFrame request={request} status={view.status} className={className} settle={view.settle}>
      {/* No name of its own: a named form is a landmark, and two servers asking the same prompt
          would make two alike; the section around it names the question and its server. */}
      <form
        ref={formRef}
        className="waitfor-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.accept()) setRefusals((count) => count + 1);
        }}
      >
        {/* A re-ask: the server refused the last answer; its messages are on the fields below. */}
        {form.attempt !== undefined && form.attempt > 1 ? (
          <p className="waitfor-attempt" data-waitfor-attempt="">
            {text('attempt', { attempt: number(form.attempt) })}
          </p>
        ) : null}
        {form.schemaError ? (
          <p role="alert" className="waitfor-error">
            {text('schemaError', { error: form.schemaError.message })}
          </p>
        ) : null}
        {form.fields.map((field, index) => {
          const error = own(form.errors, field.name);
          return (
            <FormFieldControl
              key={field.name}
              field={field}
              id={`${id}-${index}`}
              value={own(form.values, field.name)}
              error={error === undefined ? undefined : fieldError(error, field)}
              onChange={(value) => form.setValue(field.name, value)}
            />
          );
        })}
        <div className="waitfor-actions">
          <ActionButton
            request={request}
            action="accept"
            type="submit"
            disabled={form.schemaError !== undefined}
          />
          <ActionButton request={request} action="decline" onClick={() => form.decline()} />
          <ActionButton request={request} action="cancel" onClick={() => form.cancel()} />
        </div>
      </form>
    </RequestFrame>
  );
}
