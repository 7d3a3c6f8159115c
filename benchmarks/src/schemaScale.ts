/**
 * Benchmark 7 — schema scale. The time `parseFormSchema` + `validateFormAnswer` take per KB of
 * schema JSON, for forms of about 1 KB, 100 KB and 1 MB, and how that time per KB grows from the
 * smallest to the largest: a check that compares every item with every other would grow with the
 * size, a linear one stays flat (budget ≤ 2). Also the largest schema of this shape the default
 * limits accept. Each call gets a fresh schema object with its own title, so no call is served
 * from parseFormSchema's cache of recently checked schemas.
 */
import {
  defaultFormLimits,
  parseFormSchema,
  validateFormAnswer,
  type FormLimits,
  type FormValue,
} from '@waitfor/core/form';
import { kilobytes, ms } from './format';
import { collectGarbage, median, timeSync } from './stats';
import type { BenchResult, Figure } from './result';

/** Schema sizes measured, in bytes of JSON. */
export const SIZES = [1024, 100 * 1024, 1024 * 1024] as const;
/** Timed runs per size (sizes interleaved). */
export const RUNS = 15;
/** Calls per run are chosen so a run checks about this many bytes (at least one call). */
const BYTES_PER_RUN = 1024 * 1024;

const raised: FormLimits = {
  fields: Infinity,
  choices: Infinity,
  stringLength: Infinity,
  schemaSize: Infinity,
};

const choices = (field: number, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    const: `option-${field}-${index}`,
    title: `Option ${index} of field ${field}`,
  }));

/** The n-th property: the five kinds in turn, each with a title and a description, as real forms. */
function property(index: number): Record<string, unknown> {
  const common = {
    title: `Field number ${index}`,
    description: `What the person should enter in field ${index}, in a sentence or two.`,
  };
  switch (index % 5) {
    case 0:
      return { type: 'string', ...common, minLength: 1, maxLength: 200, default: 'text' };
    case 1:
      return { type: 'integer', ...common, minimum: 0, maximum: 1000, default: 7 };
    case 2:
      return { type: 'boolean', ...common, default: false };
    case 3:
      return { type: 'string', ...common, oneOf: choices(index, 12) };
    default:
      return { type: 'array', ...common, items: { anyOf: choices(index, 12) }, maxItems: 5 };
  }
}

/** A valid answer for the n-th property. */
function answer(index: number): FormValue {
  return [`text ${index}`, '42', 'true', `option-${index}-3`, [`option-${index}-1`]][index % 5]!;
}

/** A form of at least `bytes` bytes of JSON: properties are added until it is that large. */
function form(bytes: number): { json: string; answers: Record<string, FormValue> } {
  const properties: Record<string, unknown> = {};
  const answers: Record<string, FormValue> = {};
  let size = 60;
  for (let index = 0; size < bytes; index++) {
    const name = `field${index}`;
    properties[name] = property(index);
    answers[name] = answer(index);
    size += JSON.stringify(properties[name]).length + name.length + 4;
  }
  const json = JSON.stringify({ type: 'object', title: 'TITLE', properties });
  return { json, answers };
}

/** True when the default limits accept the schema. */
function acceptedByDefault(json: string): boolean {
  try {
    parseFormSchema(JSON.parse(json));
    return true;
  } catch {
    return false;
  }
}

let freshTitle = 0;

/** Milliseconds per call of parse + validate, over `calls` fresh copies of the schema. */
function measure(
  json: string,
  answers: Record<string, FormValue>,
  calls: number,
  limits?: FormLimits,
): number {
  // Built before timing; each title differs, so the cache of recent schemas never matches.
  const copies = Array.from(
    { length: calls },
    () => JSON.parse(json.replace('"TITLE"', `"Form ${freshTitle++}"`)) as unknown,
  );
  collectGarbage();
  let failed = false;
  const time = timeSync(() => {
    for (const copy of copies) {
      const schema = parseFormSchema(copy, limits === undefined ? undefined : { limits });
      if (!validateFormAnswer(schema, answers).ok) failed = true;
    }
  });
  if (failed) throw new Error('A valid answer was refused');
  return time / calls;
}

/** The largest form of this shape (in JSON bytes) the default limits accept, by bisection. */
function largestAccepted(): { bytes: number; refusedBy: string } {
  let low = 1024;
  let high = 8 * 1024 * 1024;
  while (high - low > 1024) {
    const middle = Math.floor((low + high) / 2);
    if (acceptedByDefault(form(middle).json)) low = middle;
    else high = middle;
  }
  const accepted = form(low).json;
  let refusedBy = '';
  try {
    parseFormSchema(JSON.parse(form(high).json));
  } catch (error) {
    refusedBy = error instanceof Error ? error.message : String(error);
  }
  return { bytes: accepted.length, refusedBy };
}

/** Run benchmark 7. */
export async function benchSchemaScale(): Promise<BenchResult> {
  const forms = SIZES.map((bytes) => {
    const { json, answers } = form(bytes);
    const limits = acceptedByDefault(json) ? undefined : raised;
    const calls = Math.max(1, Math.round(BYTES_PER_RUN / json.length));
    return { bytes, json, answers, limits, calls, perKilobyte: [] as number[] };
  });
  // Warm up every size once, so the first timed run does not pay for compilation.
  for (const entry of forms) measure(entry.json, entry.answers, entry.calls, entry.limits);
  for (let run = 0; run < RUNS; run++) {
    for (const entry of run % 2 === 0 ? forms : [...forms].reverse()) {
      const perCall = measure(entry.json, entry.answers, entry.calls, entry.limits);
      entry.perKilobyte.push(perCall / (entry.json.length / 1024));
    }
  }
  const figures: Figure[] = [];
  for (const entry of forms) {
    const perKilobyte = median(entry.perKilobyte);
    const fields = Object.keys(entry.answers).length;
    figures.push({
      name: `${kilobytes(entry.json.length)} schema: parse + validate per KB`,
      value: perKilobyte,
      unit: 'ms',
      runs: RUNS,
      detail:
        `${fields} fields, ${ms(perKilobyte * (entry.json.length / 1024))} per call` +
        (entry.limits === undefined ? '' : '; limits raised (the defaults refuse it)'),
    });
  }
  const ratio = median(forms.at(-1)!.perKilobyte) / median(forms[0]!.perKilobyte);
  figures.push({
    name: 'time per KB, 1 MB ÷ 1 KB schema',
    value: ratio,
    unit: '×',
    runs: RUNS,
    budget: { max: 2, label: '≤ 2' },
    detail: 'flat when every check is linear in the schema size',
  });
  const largest = largestAccepted();
  figures.push({
    name: 'largest schema accepted by default',
    value: largest.bytes / 1024,
    unit: 'KB',
    runs: 1,
    detail: `the next larger one is refused: ${largest.refusedBy}`,
  });
  const notes: string[] = [];
  if (ratio > 2)
    notes.push(
      `Time per KB grows ${ratio.toFixed(2)}× from 1 KB to 1 MB: some check is not linear.`,
    );
  return {
    id: 'schema-scale',
    title: '7. Schema scale (@waitfor/core/form)',
    method:
      `Forms of the five field kinds in turn (titles, descriptions, 12 titled choices per select) ` +
      `grown to about 1 KB, 100 KB and 1 MB of JSON; ${RUNS} runs per size (sizes interleaved), ` +
      `each timing parseFormSchema + validateFormAnswer on fresh copies (about 1 MB of schema per ` +
      `run); the median time per KB of JSON. Default limits: ` +
      `${Object.entries(defaultFormLimits)
        .map(([key, value]) => `${key} ${String(value)}`)
        .join(', ')}.`,
    figures,
    notes,
  };
}
