import type { FormField } from '@waitfor/core/form';
import { readNumber } from './choices.js';
import { cleanText } from './cleanText.js';
import type { LineReader } from './lineReader.js';

/** The part of a LineReader that asks and prints. */
export type Screen = Pick<LineReader, 'ask' | 'print'>;

/** A choice of a select or multi-select field. */
interface Option {
  value: string;
  label: string;
}

// Labels are shown, values are matched against what the person types: only labels are cleaned.
const optionsOf = (field: FormField): Option[] =>
  ((field.options ?? []) as Option[]).map((option) => ({
    value: String(option.value),
    label: cleanText(String(option.label)),
  }));

/** The one-line description of a field's constraints, shown after its title. */
export function describeField(field: FormField): string {
  const parts: string[] = [];
  // A typed date has no picker: the field says how to write it (the year as in core's message).
  const format = field.format === undefined ? undefined : String(field.format);
  if (format === 'date') parts.push('date, YYYY-MM-DD');
  else if (format === 'date-time') parts.push('date and time, e.g. 2026-01-31T09:00:00Z');
  else if (format !== undefined) parts.push(cleanText(format));
  if (field.kind === 'integer') parts.push('whole number');
  if (field.kind === 'number') parts.push('number');
  if (field.minimum !== undefined || field.maximum !== undefined) {
    parts.push(`${field.minimum ?? '…'} to ${field.maximum ?? '…'}`);
  }
  const characters = (count: number) => `${count} character${count === 1 ? '' : 's'}`;
  if (field.minLength !== undefined && field.minLength > 0)
    parts.push(`at least ${characters(field.minLength)}`);
  if (field.maxLength !== undefined) parts.push(`at most ${characters(field.maxLength)}`);
  if (field.minItems !== undefined && field.minItems > 0)
    parts.push(`pick at least ${field.minItems}`);
  if (field.maxItems !== undefined) parts.push(`pick at most ${field.maxItems}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** Shows a value the way the person typed or picked it (a re-ask's values come from the server). */
export function showValue(field: FormField, value: unknown): string {
  return cleanText(valueText(field, value));
}

function valueText(field: FormField, value: unknown): string {
  if (value === undefined || value === '') return '—';
  const label = (raw: unknown) =>
    optionsOf(field).find((option) => option.value === String(raw))?.label ?? String(raw);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(label).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return field.kind === 'select' ? label(value) : String(value);
}

function parseChoice(options: Option[], text: string): string | undefined {
  const index = readNumber(text, options.length);
  if (index !== undefined) return options[index - 1]?.value;
  return options.find(
    (option) => option.value === text || option.label.toLowerCase() === text.toLowerCase(),
  )?.value;
}

/**
 * Asks one field and returns the typed value (strings for text and numbers — the form validator
 * coerces them — booleans, chosen option values), or undefined when the person leaves it empty.
 * Re-asks only what cannot be read at all (an unknown option, not y/n); everything else is left to
 * the schema validation so its messages are the same everywhere. The field's own text (title,
 * description, labels) is indented: only the frame naming the server starts at column 0.
 */
export async function askField(
  reader: Screen,
  field: FormField,
  current: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const title = `  ${cleanText(field.title)}${field.required ? ' *' : ''}${describeField(field)}`;
  const fallback = current === undefined ? '' : ` [${showValue(field, current)}]`;
  if (field.description !== undefined) reader.print(`    ${cleanText(field.description)}`);
  for (;;) {
    if (field.kind === 'boolean') {
      const text = (await reader.ask(`${title} (y/n)${fallback}: `, signal)).toLowerCase();
      if (text === '') return current;
      if (['y', 'yes', 'true'].includes(text)) return true;
      if (['n', 'no', 'false'].includes(text)) return false;
      reader.print('    Please type y or n.');
      continue;
    }
    if (field.kind === 'select' || field.kind === 'multiselect') {
      const options = optionsOf(field);
      reader.print(`${title}`);
      options.forEach((option, index) => reader.print(`    ${index + 1}) ${option.label}`));
      const hint =
        field.kind === 'multiselect' ? 'numbers separated by commas, - for none' : 'number';
      const text = await reader.ask(`  Choose (${hint})${fallback}: `, signal);
      if (text === '') return current;
      if (field.kind === 'select') {
        const value = parseChoice(options, text);
        if (value !== undefined) return value;
      } else {
        if (text === '-') return [];
        const values = text.split(',').map((part) => parseChoice(options, part.trim()));
        if (values.every((value) => value !== undefined)) return [...new Set(values)];
      }
      reader.print(`    "${text}" is not one of the choices.`);
      continue;
    }
    const text = await reader.ask(`${title}${fallback}: `, signal);
    return text === '' ? current : text;
  }
}
