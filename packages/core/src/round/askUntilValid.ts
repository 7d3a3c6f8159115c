import { createRequestId } from '../requestId';
import type { Answer, Request } from '../types';

/** What a check of an Answer gives: the value to hand on, or one message per offending field. */
export type AnswerCheck<Value> = { value: Value } | { errors: Record<string, string> };

/** How askUntilValid asks. */
export interface AskUntilValidOptions<Value> {
  /** Asks one Request (the first, then each re-ask) and resolves with its Answer. */
  ask(request: Request): Promise<Answer>;
  /** Checks an Answer: a refusal or a valid form gives its value, an invalid form its errors. */
  check(answer: Answer, request: Request): AnswerCheck<Value>;
  /** How many submissions of an invalid form a person gets (≥ 1). */
  maxAttempts: number;
  /** Prefix of a re-ask's fresh id (e.g. `elc`, `tool`): names who asks. */
  idPrefix: string;
}

/** The end of askUntilValid: a checked value, or the last errors once every attempt was invalid. */
export type AskUntilValidResult<Value> =
  { value: Value } | { errors: Record<string, string>; attempts: number };

/**
 * Asks `first` and checks its Answer; an invalid form is asked again under a fresh id with
 * `data.errors` (per field), `data.values` (what the person gave) and `data.attempt`, up to
 * `maxAttempts`. Never asks more than that; errors thrown by `ask` pass through.
 */
export async function askUntilValid<Value>(
  first: Request,
  options: AskUntilValidOptions<Value>,
): Promise<AskUntilValidResult<Value>> {
  let request = first;
  for (let attempt = 1; ; attempt += 1) {
    const answer = await options.ask(request);
    const checked = options.check(answer, request);
    if (!('errors' in checked)) return checked;
    if (attempt >= options.maxAttempts) return { errors: checked.errors, attempts: attempt };
    request = {
      ...request,
      id: createRequestId(options.idPrefix),
      data: {
        ...request.data,
        errors: checked.errors,
        values: answer.data ?? {},
        attempt: attempt + 1,
      },
    };
  }
}
