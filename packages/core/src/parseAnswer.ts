import type { Rule } from './check';
import { isRecord, isString, nonEmpty, parseRecord } from './check';
import type { Answer } from './types';

const answerRules: Record<string, Rule> = {
  id: [nonEmpty, true],
  ok: [(value) => typeof value === 'boolean', true],
  data: [isRecord],
  reason: [isString],
};

/** Checks untrusted data (e.g. parsed JSON) and returns it as an Answer, or throws `invalid_answer`. */
export const parseAnswer = (value: unknown): Answer =>
  parseRecord(value, 'invalid_answer', 'Answer', answerRules) as unknown as Answer;
