import { isDate, parseDateTime } from '../dateTime';
import type { FormField, FormValue } from './formTypes';

// Strings a form input may send for a number: no hex, no blanks (Number('') is 0), no Infinity.
const numberText = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

// Deliberately simple: one @, no spaces, a dot in the domain. Servers validate for real.
const emailPattern = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
// RFC 3986 absolute URI: a scheme, then no whitespace or control characters.
const uriPattern = /^[a-z][a-z\d+.-]*:[^\0- \x7f]*$/i;

const formats: Record<string, [(value: string) => boolean, string]> = {
  email: [(value) => emailPattern.test(value), 'Enter an email address.'],
  uri: [(value) => uriPattern.test(value), 'Enter a URI such as https://example.com.'],
  date: [isDate, 'Enter a date as YYYY-MM-DD.'],
  'date-time': [
    (value) => !isNaN(parseDateTime(value)),
    'Enter a date and time such as 2026-01-31T09:00:00Z.',
  ],
};

const tooSmall = (value: number, minimum: number | undefined): boolean =>
  minimum !== undefined && value < minimum;
const tooLarge = (value: number, maximum: number | undefined): boolean =>
  maximum !== undefined && value > maximum;
const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * Checks one value against a field. With `coerce`, form-input strings are converted first ("42" →
 * 42, "true" → true, a single choice → [choice]). Returns the (coerced) value, or an error message.
 */
export function checkValue(
  field: FormField,
  input: unknown,
  coerce: boolean,
): { value: FormValue } | string {
  let value = input;
  switch (field.kind) {
    case 'boolean':
      if (coerce && (value === 'true' || value === 'false')) value = value === 'true';
      return typeof value === 'boolean' ? { value } : 'Choose yes or no.';
    case 'number':
    case 'integer':
      if (coerce && typeof value === 'string' && numberText.test(value)) value = Number(value);
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Enter a number.';
      if (field.kind === 'integer' && !Number.isInteger(value)) return 'Enter a whole number.';
      if (tooSmall(value, field.minimum)) return `Must be at least ${field.minimum}.`;
      if (tooLarge(value, field.maximum)) return `Must be at most ${field.maximum}.`;
      return { value };
    case 'string': {
      if (typeof value !== 'string') return 'Enter text.';
      // JSON Schema counts lengths in code points, not UTF-16 units.
      const length = [...value].length;
      if (tooSmall(length, field.minLength))
        return `Must be at least ${plural(field.minLength!, 'character')}.`;
      if (tooLarge(length, field.maxLength))
        return `Must be at most ${plural(field.maxLength!, 'character')}.`;
      // Own keys only: a format named "toString" must not find Object.prototype.toString.
      const format = Object.hasOwn(formats, field.format ?? '')
        ? formats[field.format!]
        : undefined;
      if (format && !format[0](value)) return format[1];
      return { value };
    }
    case 'select':
      return field.options!.some((option) => option.value === value)
        ? { value: value as string }
        : 'Choose one of the options.';
    case 'multiselect': {
      if (coerce && typeof value === 'string') value = [value];
      if (!Array.isArray(value)) return 'Choose from the options.';
      if (!value.every((item) => field.options!.some((option) => option.value === item))) {
        return 'Choose only from the options.';
      }
      if (new Set(value).size !== value.length) return 'Choose each option once.';
      if (tooSmall(value.length, field.minItems)) return `Choose at least ${field.minItems}.`;
      if (tooLarge(value.length, field.maxItems)) return `Choose at most ${field.maxItems}.`;
      return { value: [...(value as string[])] };
    }
  }
}
