'use client';
import { useEffect, useId, useRef, useState } from 'react';
import type { Request } from '@waitfor/core';
import { FormFieldControl } from './FormFieldControl.js';
import { RequestFrame } from './RequestFrame.js';
import { useElicitationForm } from './useElicitationForm.js';
import { useRequestView } from './useRequestView.js';

/** Props of ElicitationForm. */
export interface ElicitationFormProps {
  /** A `kind:"input"` Request whose `data.schema` describes the form. */
  request: Request;
}

// Field names come from the server: "constructor" must never read Object.prototype.constructor.
const own = <T,>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * An unstyled form for a `kind:"input"` Request: every field kind as a labelled native control,
 * errors announced, and Accept / Decline / Cancel. A re-ask shows the person's last values, the
 * refused fields' messages and its attempt number.
 */
export function ElicitationForm({ request }: ElicitationFormProps) {
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
    <RequestFrame request={request} status={view.status}>
      <form
        ref={formRef}
        noValidate
        aria-label={request.prompt}
        onSubmit={(event) => {
          event.preventDefault();
          if (!form.accept()) setRefusals((count) => count + 1);
        }}
      >
        {/* A re-ask: the server refused the last answer; its messages are on the fields below. */}
        {form.attempt !== undefined && form.attempt > 1 ? (
          <p data-waitfor-attempt="">Attempt {form.attempt}</p>
        ) : null}
        {form.schemaError ? (
          <p role="alert">
            This form cannot be shown: {form.schemaError.message}. You can still decline or cancel.
          </p>
        ) : null}
        {form.fields.map((field, index) => (
          <FormFieldControl
            key={field.name}
            field={field}
            id={`${id}-${index}`}
            value={own(form.values, field.name)}
            error={own(form.errors, field.name)}
            onChange={(value) => form.setValue(field.name, value)}
          />
        ))}
        <div>
          <button type="submit" disabled={form.schemaError !== undefined}>
            Accept
          </button>
          <button type="button" onClick={() => form.decline()}>
            Decline
          </button>
          <button type="button" onClick={() => form.cancel()}>
            Cancel
          </button>
        </div>
      </form>
    </RequestFrame>
  );
}
