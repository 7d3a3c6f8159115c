import type { FormSchema } from '../form/formTypes';
import { validateAnswerData } from '../form/validateFormAnswer';
import { parseAnswer } from '../parseAnswer';
import type { Answer, Request } from '../types';
import { WaitforError } from '../waitforError';

/** A Request a suspended round waits on, under its input key, with its form's schema parsed once. */
export interface SuspendedQuestion {
  key: string;
  request: Request;
  /** The form's schema as parsed when the suspension was read (absent: not a form). */
  form?: FormSchema | undefined;
}

/** At most this many ids are listed in an answer_mismatch message. */
const LISTED = 10;

/** The ids an answer_mismatch names: the `cause` of that error. */
export interface AnswerMismatch {
  missing: string[];
  foreign: string[];
}

/** One well-formed Answer per id of `byId` that `answers` gives, and the ids of all the others. */
function sortAnswers(byId: ReadonlyMap<string, unknown>, answers: readonly unknown[]) {
  const found = new Map<string, Answer>();
  const foreign: string[] = [];
  // Not an array: every Request is missing.
  for (const item of Array.isArray(answers) ? answers : []) {
    let answer: Answer | undefined;
    try {
      answer = parseAnswer(item);
    } catch {
      answer = undefined;
    }
    if (answer === undefined || !byId.has(answer.id) || found.has(answer.id)) {
      const id = (item as { id?: unknown } | null)?.id;
      foreign.push(typeof id === 'string' ? id : typeof id);
      continue;
    }
    found.set(answer.id, answer);
  }
  return { found, foreign };
}

/**
 * The Answers to a suspended round's questions, keyed by input key (null prototype). Throws
 * WaitforError `answer_mismatch` (cause: the missing and foreign ids) unless every question has
 * exactly one well-formed Answer and none is foreign or repeated, and `invalid_answer` (path: the
 * input key, cause: the per-field errors) for an accepted form that fails its schema; an accepted
 * form's Answer carries the checked value. One linear pass over the answers.
 */
export function answersFor(
  questions: readonly SuspendedQuestion[],
  answers: readonly unknown[],
): Record<string, Answer> {
  const byId = new Map(questions.map((question) => [question.request.id, question]));
  const { found, foreign } = sortAnswers(byId, answers);
  const missing = [...byId.keys()].filter((id) => !found.has(id));
  if (foreign.length > 0 || missing.length > 0) {
    const list = (ids: string[]) => ids.slice(0, LISTED).join(', ') || 'none';
    const cause: AnswerMismatch = { missing, foreign };
    throw new WaitforError(
      'answer_mismatch',
      `The answers do not match the Requests (missing: ${list(missing)}; foreign: ${list(foreign)})`,
      { cause },
    );
  }
  const byKey = Object.create(null) as Record<string, Answer>;
  for (const { key, request, form } of questions) {
    const answer = found.get(request.id)!;
    byKey[key] = answer;
    if (!answer.ok || form === undefined) continue;
    const checked = validateAnswerData(form, answer.data);
    if (!checked.ok) {
      throw new WaitforError('invalid_answer', `Invalid answer to ${request.id}`, {
        path: key,
        errors: checked.errors,
      });
    }
    byKey[key] = { id: request.id, ok: true, data: checked.value };
  }
  return byKey;
}
