'use client';
import type { FormField } from '@waitfor/core/form';

/** Props of FormFieldControl. */
export interface FormFieldControlProps {
  field: FormField;
  value: unknown;
  error: string | undefined;
  /** A unique id prefix (from useId) for this field's control, description and error. */
  id: string;
  onChange(value: unknown): void;
}

const inputTypes = new Map([
  ['email', 'email'],
  ['uri', 'url'],
  ['date', 'date'],
]);

function asText(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

function asList(value: unknown): readonly string[] {
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
}

function RequiredMark({ required }: { required: boolean }) {
  // Screen readers hear "required" from the control itself (required / aria-required).
  return required ? <span aria-hidden="true"> *</span> : null;
}

/** One labelled, keyboard-operable native control for a form field, with its description and error. */
export function FormFieldControl({ field, value, error, id, onChange }: FormFieldControlProps) {
  const label = field.title;
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const hint = field.format === 'date-time' ? 'Date and time, e.g. 2025-01-31T09:00:00Z' : '';
  const description = [field.description, hint].filter(Boolean).join(' ');
  const describedBy =
    [description ? descriptionId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const aria = { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy };
  const after = (
    <>
      {description ? <p id={descriptionId}>{description}</p> : null}
      {error ? (
        <p id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </>
  );

  if (field.kind === 'boolean') {
    return (
      <div data-waitfor-field={field.name}>
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          aria-required={field.required || undefined}
          onChange={(event) => onChange(event.target.checked)}
          {...aria}
        />
        <label htmlFor={id}>
          {label}
          <RequiredMark required={field.required} />
        </label>
        {after}
      </div>
    );
  }

  if (field.kind === 'multiselect') {
    const selected = asList(value);
    const options = field.options ?? [];
    return (
      <fieldset id={id} data-waitfor-field={field.name} aria-describedby={describedBy}>
        <legend>
          {label}
          <RequiredMark required={field.required} />
        </legend>
        {options.map((option, index) => (
          <div key={option.value}>
            <input
              id={`${id}-${index}`}
              type="checkbox"
              checked={selected.includes(option.value)}
              aria-invalid={error ? true : undefined}
              onChange={(event) =>
                onChange(
                  options
                    .map((each) => each.value)
                    .filter((each) =>
                      each === option.value ? event.target.checked : selected.includes(each),
                    ),
                )
              }
            />
            <label htmlFor={`${id}-${index}`}>{option.label}</label>
          </div>
        ))}
        {after}
      </fieldset>
    );
  }

  const heading = (
    <label htmlFor={id}>
      {label}
      <RequiredMark required={field.required} />
    </label>
  );

  if (field.kind === 'select') {
    const options = field.options ?? [];
    const text = asText(value);
    return (
      <div data-waitfor-field={field.name}>
        {heading}
        <select
          id={id}
          value={text}
          required={field.required}
          onChange={(event) => onChange(event.target.value)}
          {...aria}
        >
          {/* Without a default the person must choose actively; an optional one can be unset. */}
          {!field.required || text === '' ? <option value="">Choose…</option> : null}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {after}
      </div>
    );
  }

  const numeric = field.kind === 'number' || field.kind === 'integer';
  return (
    <div data-waitfor-field={field.name}>
      {heading}
      <input
        id={id}
        type={numeric ? 'number' : (inputTypes.get(field.format ?? '') ?? 'text')}
        value={asText(value)}
        required={field.required}
        minLength={field.minLength}
        maxLength={field.maxLength}
        min={field.minimum}
        max={field.maximum}
        step={field.kind === 'integer' ? 1 : numeric ? 'any' : undefined}
        onChange={(event) => onChange(event.target.value)}
        {...aria}
      />
      {after}
    </div>
  );
}
