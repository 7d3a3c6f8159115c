import { isDate, parseDateTime } from '../dateTime';
import type { FormField, FormValue } from './formTypes';

// Strings a form input may send for a number: no hex, no blanks (Number('') is 0), no Infinity.
// Written so that no two parts can match the same digits: a long run of digits is checked in
// linear time (`\d+\.?\d*` backtracks quadratically on "1111…x").
const numberText = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
// The parts of a string that matched numberText: sign, whole digits, fraction digits, exponent.
const numberParts = /^([-+]?)(\d*)\.?(\d*)(?:e([-+]?\d+))?$/i;

/**
 * The exact decimal value of a number string (one that matched numberText, or String(number)) as
 * sign, significant digits and exponent: "1.50" and "15e-1" both give "15e-1", "-0" gives "0".
 */
function decimal(text: string): string {
  const [, sign, whole, fraction, exponent] = numberParts.exec(text.trim())!;
  const digits = whole! + fraction!;
  // Loops, not /0+$/: that backtracks quadratically over a long run of zeros.
  let start = 0;
  while (digits[start] === '0') start++;
  let end = digits.length;
  while (end > start && digits[end - 1] === '0') end--;
  if (start === end) return '0';
  const scale = Number(exponent ?? 0) - fraction!.length + (digits.length - end);
  return `${sign === '-' ? '-' : ''}${digits.slice(start, end)}e${scale}`;
}

// Deliberately simple: one @, no spaces, a dot in the domain. Servers validate for real.
const emailPattern = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
// RFC 3986 absolute URI: a scheme, a colon, then a hier-part that is not empty (so not "a:").
const uriStart = /^[a-z][a-z\d+.-]*:[^?#]/i;
// Anything RFC 3986 never allows: a character outside its set (spaces, controls, non-ASCII and
// "<>\^`{|}), a % not followed by two hex digits, or a second #.
const uriFault = /[^!#-;=?-[\]_a-z~]|%(?![\da-f]{2})|#.*#/i;

const formats: Record<string, [(value: string) => boolean, string]> = {
  email: [(value) => emailPattern.test(value), 'Enter an email address.'],
  uri: [
    (value) => uriStart.test(value) && !uriFault.test(value),
    'Enter a URI such as https://example.com.',
  ],
  date: [isDate, 'Enter a date as YYYY-MM-DD.'],
  'date-time': [
    (value) => !isNaN(parseDateTime(value)),
    'Enter a date and time such as 2026-01-31T09:00:00Z.',
  ],
};

const safe = Number.MAX_SAFE_INTEGER;

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
    case 'integer': {
      const text =
        coerce && typeof value === 'string' && numberText.test(value) ? value : undefined;
      if (text !== undefined) value = Number(text);
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Enter a number.';
      if (field.kind === 'integer') {
        if (!Number.isInteger(value)) return 'Enter a whole number.';
        // Beyond 2^53 a number stands for several integers: 9007199254740993 arrives as …992.
        if (!Number.isSafeInteger(value))
          return `Enter a whole number between ${-safe} and ${safe}.`;
      }
      // The number must be written (as in JSON, shortest form) with the value that was typed, or
      // the answer would change silently: "0.1" is kept, "0.1000000000000000000001" and "1e-400"
      // are not. An integer field only gets here with text that was not whole.
      if (text !== undefined && decimal(text) !== decimal(String(value)))
        return field.kind === 'integer'
          ? 'Enter a whole number.'
          : 'Enter a number with fewer digits: this one cannot be kept exactly.';
      if (tooSmall(value, field.minimum)) return `Must be at least ${field.minimum}.`;
      if (tooLarge(value, field.maximum)) return `Must be at most ${field.maximum}.`;
      return { value };
    }
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
