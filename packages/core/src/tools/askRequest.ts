import { answerCause, cancel } from '../answers';
import { validateAnswerData } from '../form/validateFormAnswer';
import { createRequestId } from '../requestId';
import type { AbortSignalLike, Answer, Request, WaitFor } from '../types';
import { WaitforError } from '../waitforError';
import { isForm } from './checkRequests';

/** Default number of invalid form submissions before a question ends cancelled. */
export const DEFAULT_MAX_ATTEMPTS = 3;

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
 * checked value; an invalid one is asked again with `data.errors`, `data.values` and `data.attempt`
 * under a fresh id, up to `maxAttempts`, then ends cancelled with an `invalid_answer` cause.
 */
export async function askRequest(
  bound: WaitFor,
  request: Request,
  options: AskRequestOptions,
): Promise<Answer> {
  // A form's own check takes the data as the person gave it (validateAnswerData: no data means the
  // defaults); a `validate` of the caller's gets an object either way.
  const { validate } = options;
  const schema = isForm(request) ? request.data!.schema : undefined;
  let asked = request;
  for (let attempt = 1; ; attempt += 1) {
    const answer = await bound(asked, { signal: options.signal });
    if (!answer.ok || (validate === undefined && schema === undefined))
      return underId(answer, request.id);
    const data = answer.data ?? {};
    const checked = validate ? validate(data) : validateAnswerData(schema, answer.data);
    if (checked.ok) return { id: request.id, ok: true, data: checked.value };
    if (attempt >= options.maxAttempts) {
      const cause = new WaitforError(
        'invalid_answer',
        `No valid answer to ${request.id} after ${attempt} attempts`,
        { cause: checked.errors },
      );
      return cancel(request, cause);
    }
    asked = {
      ...asked,
      id: createRequestId('tool'),
      data: { ...asked.data, errors: checked.errors, values: data, attempt: attempt + 1 },
    };
  }
}
