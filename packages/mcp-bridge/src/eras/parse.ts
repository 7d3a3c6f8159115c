/**
 * A stored suspension checked before it is kept or resumed (`resume` checks it again itself):
 * either kind, a modern-era call's retry or a task's reference (`kind: "task"`).
 */
import { resolveLimits, type BridgeLimits } from '../limits';
import { isTaskReference, parseTaskSuspension } from '../tasks/suspension';
import type { Suspension, TaskSuspension } from '../types';
import { parseSuspension as parseCallSuspension } from './modern/suspension';

/**
 * Check untrusted suspension data (e.g. read back from storage), within `limits` when given;
 * throws 'invalid_suspension' (the underlying error as `cause`).
 */
export function parseSuspension(
  value: unknown,
  limits?: Partial<BridgeLimits>,
): Suspension | TaskSuspension {
  return isTaskReference(value)
    ? parseTaskSuspension(value, resolveLimits(limits))
    : parseCallSuspension(value, limits);
}
