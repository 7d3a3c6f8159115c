import { formats } from './formats';
import type { FormField, FormOption, FormValue } from './formTypes';

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

const safe = Number.MAX_SAFE_INTEGER;

/**
 * The number of code points in `value` (JSON Schema counts lengths in code points, a surrogate pair
 * as one), counting no further than `stop`. A loop, not `[...value].length`: spreading a string of
 * a hundred million characters into an array exhausts the heap.
 */
function codePoints(value: string, stop: number): number {
  let count = 0;
  for (let index = 0; index < value.length && count < stop; index++, count++) {
    const code = value.charCodeAt(index);
    if (code >= 0xd800 && code < 0xdc00) {
      const next = value.charCodeAt(index + 1);
      if (next >= 0xdc00 && next < 0xe000) index++;
    }
  }
  return count;
}

// The choices of each field as a Set, made once: looking every picked item up in the list of
// choices would be quadratic (a default listing 25,000 choices took seconds).
const choiceSets = new WeakMap<readonly FormOption[], Set<string>>();

function choiceSet(options: readonly FormOption[]): Set<string> {
  let set = choiceSets.get(options);
  if (set === undefined) {
    set = new Set(options.map((option) => option.value));
    choiceSets.set(options, set);
  }
  return set;
}

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
      // One past the largest bound is enough to tell whether the value is within both.
      const length = codePoints(value, (field.maxLength ?? field.minLength ?? 0) + 1);
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
      return typeof value === 'string' && choiceSet(field.options!).has(value)
        ? { value }
        : 'Choose one of the options.';
    case 'multiselect': {
      if (coerce && typeof value === 'string') value = [value];
      if (!Array.isArray(value)) return 'Choose from the options.';
      const choices = choiceSet(field.options!);
      for (let index = 0; index < value.length; index++)
        if (!choices.has(value[index] as string)) return 'Choose only from the options.';
      if (new Set(value).size !== value.length) return 'Choose each option once.';
      if (tooSmall(value.length, field.minItems)) return `Choose at least ${field.minItems}.`;
      if (tooLarge(value.length, field.maxItems)) return `Choose at most ${field.maxItems}.`;
      return { value: [...(value as string[])] };
    }
  }
}
