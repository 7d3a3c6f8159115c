import { isRecord } from '../check';
import { WaitforError } from '../waitforError';
import type { SuspendedQuestion } from './answersFor';

/** Refuses a suspension: throws WaitforError `invalid_suspension` at `path`. */
export type SuspensionFail = (path: string, message: string, cause?: unknown) => never;

/** What a driver's suspensions look like: its version and its own fields. */
export interface SuspensionShape<Own> {
  /** The one version this driver writes and reads; others are refused. */
  version: number;
  /** What to do instead with another version, e.g. "run the tool again". */
  otherwise: string;
  /**
   * Reads the driver's own fields and the round's questions (each form's schema parsed once) from
   * untrusted data whose version is checked; refuses through `fail`.
   */
  read(
    record: Record<string, unknown>,
    fail: SuspensionFail,
  ): {
    own: Own;
    questions: SuspendedQuestion[];
  };
}

/** A suspension as read once: the driver's fields, the questions it waits on, and its round. */
export interface ParsedSuspension<Own> {
  own: Own;
  questions: SuspendedQuestion[];
  /** How many rounds the run has seen so far (≥ 1). */
  round: number;
}

const fail: SuspensionFail = (path, message, cause) => {
  throw new WaitforError('invalid_suspension', `Invalid suspension: ${message}`, { path, cause });
};

/**
 * Reads untrusted suspension data (e.g. from storage) once: an object of the shape's version, the
 * driver's fields and questions as `shape.read` finds them, and a round that is an integer ≥ 1.
 * Throws WaitforError `invalid_suspension` whose path names the field.
 */
export function parseSuspension<Own>(
  value: unknown,
  shape: SuspensionShape<Own>,
): ParsedSuspension<Own> {
  if (!isRecord(value)) return fail('', 'not an object');
  if (value.version !== shape.version)
    fail(
      'version',
      `version ${String(value.version)} is not ${shape.version} (${shape.otherwise})`,
    );
  const { own, questions } = shape.read(value, fail);
  const round = value.round;
  if (!Number.isInteger(round) || (round as number) < 1)
    fail('round', 'round must be an integer ≥ 1');
  return { own, questions, round: round as number };
}
