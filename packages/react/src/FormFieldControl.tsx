'use client';
import type { FormField } from '@waitfor/core/form';
import { classNames } from './classNames.js';
import { useLocalization } from './localization.js';

/** Props of FormFieldControl. */
export interface FormFieldControlProps {
  field: FormField;
  value: unknown;
  error: string | undefined;
  /** A unique id prefix (from useId) for this field's control, description and error. */
  id: string;
  onChange(value: unknown): void;
  className?: string;
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
  // "" is a group with no box checked (no answer), never the choice "".
  return Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string' && value !== ''
      ? [value]
      : [];
}

function RequiredMark({ required }: { required: boolean }) {
  // Screen readers hear "required" from the control itself (required / aria-required).
  return required ? (
    <span className="waitfor-required" aria-hidden="true">
      {' *'}
    </span>
  ) : null;
}

/** One labelled, keyboard-operable native control for a form field, with its description and error. */
export function FormFieldControl({
  field,
  value,
  error,
  id,
  onChange,
  className,
}: FormFieldControlProps) {
  const { text } = useLocalization();
  const label = field.title;
  const part = classNames('waitfor-field', className);
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const hint = field.format === 'date-time' ? text('dateTimeHint') : '';
  const description = [field.description, hint].filter(Boolean).join(' ');
  const describedBy =
    [description ? descriptionId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const aria = { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy };
  const after = (
    <>
      {description ? (
        <p id={descriptionId} className="waitfor-description">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="waitfor-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );

  if (field.kind === 'boolean') {
    return (
      <div className={part} data-waitfor-field={field.name}>
        <input
          id={id}
          className="waitfor-control"
          type="checkbox"
          checked={value === true}
          aria-required={field.required || undefined}
          onChange={(event) => onChange(event.target.checked)}
          {...aria}
        />
        <label htmlFor={id} className="waitfor-label">
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
      <fieldset
        id={id}
        className={part}
        data-waitfor-field={field.name}
        aria-describedby={describedBy}
      >
        <legend className="waitfor-label">
          {label}
          <RequiredMark required={field.required} />
        </legend>
        {options.map((option, index) => (
          <div key={option.value} className="waitfor-option">
            <input
              id={`${id}-${index}`}
              className="waitfor-control"
              type="checkbox"
              checked={selected.includes(option.value)}
              // A group has no aria-required of its own in ARIA: each box of a required group says it.
              aria-required={field.required || undefined}
              aria-invalid={error ? true : undefined}
              onChange={(event) => {
                const next = options
                  .map((each) => each.value)
                  .filter((each) =>
                    each === option.value ? event.target.checked : selected.includes(each),
                  );
                // No box checked looks like an untouched group, so it is no answer (""), as a
                // blank text box is: left out when optional, "Required." when required. An empty
                // list would be the answer "none of these", which a checkbox group cannot say.
                onChange(next.length > 0 ? next : '');
              }}
            />
            <label htmlFor={`${id}-${index}`}>{option.label}</label>
          </div>
        ))}
        {after}
      </fieldset>
    );
  }

  const heading = (
    <label htmlFor={id} className="waitfor-label">
      {label}
      <RequiredMark required={field.required} />
    </label>
  );

  if (field.kind === 'select') {
    const options = field.options ?? [];
    const chosen = asText(value);
    return (
      <div className={part} data-waitfor-field={field.name}>
        {heading}
        <select
          id={id}
          className="waitfor-control"
          value={chosen}
          required={field.required}
          onChange={(event) => onChange(event.target.value)}
          {...aria}
        >
          {/* Without a default the person must choose actively; an optional one can be unset. */}
          {!field.required || chosen === '' ? <option value="">{text('choose')}</option> : null}
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
    <div className={part} data-waitfor-field={field.name}>
      {heading}
      <input
        id={id}
        className="waitfor-control"
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
