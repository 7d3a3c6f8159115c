import { answerCause, cancel } from '../answers';
import { validateAnswerData } from '../form/validateFormAnswer';
import { askUntilValid, type AnswerCheck } from '../round/askUntilValid';
import { isForm } from '../round/checkRequests';
import type { AbortSignalLike, Answer, Request, WaitFor } from '../types';
import { WaitforError } from '../waitforError';

export { DEFAULT_MAX_ATTEMPTS } from '../round/defaults';

/** Checks what a person filled in: the value to hand on, or one message per offending field. */
export type Validate = (
  data: Record<string, unknown>,
) => { ok: true; value: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** How askRequest asks. */
export interface AskRequestOptions {
  signal?: AbortSignalLike | undefined;
  /** How many submissions of an invalid form a person gets (≥ 1). */
  maxAttempts: number;
  /** Replaces the form's own check (the zod entry adds the schema's refinements). */
  validate?: Validate | undefined;
}

/** `answer` under the id of the Request the caller made (a re-ask has its own), keeping a cancel's cause. */
function underId(answer: Answer, id: string): Answer {
  if (answer.id === id) return answer;
  if (!answer.ok && answer.reason === 'cancelled') return cancel(id, answerCause(answer));
  return { ...answer, id };
}

/**
 * Asks one Request through a bounded waitFor (it always resolves) and returns the Answer for the
 * Request's own id. An accepted form is checked (the schema's rules, or `validate`) and carries the
 * checked value; an invalid one is asked again (the round engine's askUntilValid) up to
 * `maxAttempts`, then ends cancelled with an `invalid_answer` cause.
 */
export async function askRequest(
  bound: WaitFor,
  request: Request,
  options: AskRequestOptions,
): Promise<Answer> {
  // A form's own check takes the data as the person gave it (validateAnswerData: no data means the
  // defaults); a `validate` of the caller's gets an object either way.
  const { validate, signal } = options;
  const schema = isForm(request) ? request.data!.schema : undefined;
  const check = (answer: Answer): AnswerCheck<Answer> => {
    if (!answer.ok || (validate === undefined && schema === undefined))
      return { value: underId(answer, request.id) };
    const checked = validate
      ? validate(answer.data ?? {})
      : validateAnswerData(schema, answer.data);
    return checked.ok
      ? { value: { id: request.id, ok: true, data: checked.value } }
      : { errors: checked.errors };
  };
  const asked = await askUntilValid(request, {
    ask: (current) => bound(current, { signal }),
    check,
    maxAttempts: options.maxAttempts,
    idPrefix: 'tool',
  });
  if ('value' in asked) return asked.value;
  const cause = new WaitforError(
    'invalid_answer',
    `No valid answer to ${request.id} after ${asked.attempts} attempts`,
    { errors: asked.errors },
  );
  return cancel(request, cause);
}
