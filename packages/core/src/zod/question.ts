import { z } from 'zod';
import type { FormSchema } from '../form/formTypes';
import { validateFormAnswer } from '../form/validateFormAnswer';
import { createRequestId } from '../requestId';
import type { Answer, AnswerReason, Request, RequestOrigin } from '../types';
import { toFormSchema, type QuestionSchema } from './toFormSchema';

/** What a question is defined with: the prompt a person reads and a zod object schema. */
export interface QuestionDefinition<Schema extends QuestionSchema> {
  prompt: string;
  schema: Schema;
}

/** The outcome of a typed question: the checked, typed data, or why there is none. */
export type AskResult<Data> = { ok: true; data: Data } | { ok: false; reason: AnswerReason };

/** What a person filled in, checked: the schema's typed output, or one message per field. */
export type QuestionCheck<Data> =
  { ok: true; data: Data } | { ok: false; errors: Record<string, string> };

/** Extra facts of a question's Request. */
export interface QuestionRequestOptions {
  /** The Request's id (default: a fresh one). */
  id?: string;
  /** RFC 3339 date-time after which the question can no longer be answered. */
  expiresAt?: string;
  /** Who asks, shown by UIs and read by policies. */
  origin?: RequestOrigin;
}

/** A question checked at definition: its form schema, its Requests and the check of its answers. */
export interface Question<Schema extends QuestionSchema> {
  readonly prompt: string;
  readonly schema: Schema;
  /** The restricted form schema the person fills in (deeply frozen). */
  readonly form: FormSchema;
  /** A new form Request (kind "input", `data.schema`) for this question. */
  request(options?: QuestionRequestOptions): Request;
  /** Checks filled-in values by the form's rules, then by the zod schema (refinements included). */
  check(data: unknown): QuestionCheck<z.output<Schema>>;
  /** The typed result of an Answer to this question (an invalid accepted form is `invalid`). */
  parse(answer: Answer): AskResult<z.output<Schema>>;
}

const brand: unique symbol = Symbol.for('waitfor.question');

/** True when `value` was made by defineQuestion. */
export const isQuestion = (value: unknown): value is Question<QuestionSchema> =>
  typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true;

/** One message per field from zod's issues (the first for each); form-wide ones under ''. */
function errorsOf(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const errors = new Map<string, string>();
  for (const issue of issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '';
    if (!errors.has(key)) errors.set(key, issue.message);
  }
  return Object.fromEntries(errors);
}

/**
 * Defines a typed question: the zod object schema is turned into the elicitation form subset and
 * checked now, so a schema with no form equivalent throws WaitforError `invalid_schema` naming
 * the field. Titles and descriptions come from `.meta({title, description})` and `.describe()`.
 */
export function defineQuestion<Schema extends QuestionSchema>(
  definition: QuestionDefinition<Schema>,
): Question<Schema> {
  const { prompt, schema } = definition;
  const form = toFormSchema(schema);
  const check = (data: unknown): QuestionCheck<z.output<Schema>> => {
    const checked = validateFormAnswer(form, data);
    if (!checked.ok) return checked;
    const parsed = z.safeParse(schema, checked.value);
    return parsed.success
      ? { ok: true, data: parsed.data as z.output<Schema> }
      : { ok: false, errors: errorsOf(parsed.error.issues) };
  };
  const question: Question<Schema> = {
    prompt,
    schema,
    form,
    request: ({ id = createRequestId('ask'), expiresAt, origin } = {}) => ({
      id,
      kind: 'input',
      prompt,
      data: { schema: form, ...(origin && { origin }) },
      ...(expiresAt !== undefined && { expiresAt }),
    }),
    check,
    parse(answer) {
      if (!answer.ok) return { ok: false, reason: answer.reason ?? 'cancelled' };
      const checked = check(answer.data ?? {});
      return checked.ok ? checked : { ok: false, reason: 'invalid' };
    },
  };
  return Object.defineProperty(question, brand, { value: true });
}
