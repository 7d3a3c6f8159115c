import type { Answer } from '../types';
import { answersFor } from './answersFor';
import { parseSuspension, type ParsedSuspension, type SuspensionShape } from './suspension';

/**
 * One route a suspended round is finished by (a host's tool run again, a modern-era call retried
 * with inputResponses, a task answered with tasks/update): what its suspensions look like and how
 * the checked Answers go back. The engine does the rest.
 */
export interface RoundDriver<Own, Sent> {
  /** What a suspension of this route looks like. */
  readonly suspension: SuspensionShape<Own>;
  /** Sends the Answers back: one per question, by input key, forms checked against their schema. */
  send(suspension: ParsedSuspension<Own>, answers: Record<string, Answer>): Sent;
}

/**
 * Finishes a suspended round: reads the untrusted suspension once (`invalid_suspension`), matches
 * the Answers one to one with its questions (`answer_mismatch`; an accepted form that fails its
 * schema is `invalid_answer`) and hands them to the driver's `send`; nothing is sent on a refusal.
 */
export function resumeRound<Own, Sent>(
  driver: RoundDriver<Own, Sent>,
  suspension: unknown,
  answers: readonly unknown[],
): Sent {
  const parsed = parseSuspension(suspension, driver.suspension);
  return driver.send(parsed, answersFor(parsed.questions, answers));
}
