import type { Check } from './check';
import { fail, isRecord, nonEmpty, optional, parseRecord } from './check';
import type { Answer, Request } from './types';

// A refusal says why (`reason`); an acceptance has no reason to give.
const answerChecks: Record<string, Check> = {
  id: nonEmpty,
  ok: (value) => typeof value === 'boolean',
  data: optional(isRecord),
  reason: (value, answer) => (answer.ok ? value === undefined : nonEmpty(value)),
};

/** Checks untrusted data (e.g. parsed JSON) and returns it as an Answer, or throws `invalid_answer`. */
export const parseAnswer = (value: unknown): Answer =>
  parseRecord(value, 'invalid_answer', 'Answer', answerChecks) as unknown as Answer;

/**
 * Returns `answer` itself (not a copy: a cancel's cause stays on it) when it is a well-formed Answer
 * to `request`; throws `invalid_answer`, or `answer_mismatch` for an Answer to another id.
 */
export const answerTo = (request: Request, answer: Answer): Answer =>
  parseAnswer(answer).id === request.id
    ? answer
    : fail('answer_mismatch', 'id', `Answer for ${answer.id}`);
