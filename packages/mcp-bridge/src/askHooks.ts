/**
 * How the bridge reports its questions to the attachment that holds them: each Request handed to
 * waitFor, its Answer, and the verdict on that Answer (an accepted form may still fail its schema
 * and be asked again). The attachment turns these into its `request`, `answer` and `verdict` events.
 */
import type { Answer, Request } from '@waitfor/core';

/** What the bridge made of an Answer: the person's own refusal, or accepted / invalid once checked. */
export type AnswerVerdict = 'accepted' | 'invalid' | 'declined' | 'cancelled' | 'expired' | 'other';

/** Lifecycle hooks the attachment uses for its events and open-request list. */
export interface AskHooks {
  request?(request: Request): void;
  answer?(request: Request, answer: Answer): void;
  /** An accepted Answer checked: `accepted`, or `invalid` (its form failed; asked again or ended). */
  verdict?(request: Request, answer: Answer, verdict: AnswerVerdict): void;
}

const refusals: readonly AnswerVerdict[] = ['declined', 'cancelled', 'expired'];

/** The verdict of an Answer the person refused (its reason; one the bridge does not know is `other`). */
export const refusalOf = (answer: Answer): AnswerVerdict =>
  refusals.find((verdict) => !answer.ok && verdict === answer.reason) ?? 'other';

/**
 * Report the check of an accepted Answer to `hooks` (a refusal was reported with the Answer
 * itself) and hand the check on unchanged: the form's errors mean it was invalid.
 */
export function reportCheck<Check extends object>(
  hooks: AskHooks | undefined,
  request: Request,
  answer: Answer,
  check: Check,
): Check {
  if (answer.ok) hooks?.verdict?.(request, answer, 'errors' in check ? 'invalid' : 'accepted');
  return check;
}
