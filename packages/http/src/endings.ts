import type { Ended } from '@waitfor/core';
import { isRecord } from '@waitfor/runtime';

/** The reasons a server may give for how a question ended; any other value is not taken. */
export const endedReasons: readonly Ended['reason'][] = ['answered', 'expired', 'cancelled'];

/** The longest `answeredBy` the remote inbox keeps; a longer one is dropped, its reason kept. */
export const maxAnsweredByChars = 1000;

/**
 * How one question ended, from what a server sent (a change event's `ended` entry, a 409's body):
 * undefined unless `reason` is one of core's; `answeredBy` only when a string of at most
 * `maxAnsweredByChars` for an answered one; `at` the server's when a finite number, else `now`.
 */
export function endingOf(value: unknown, now: number): Ended | undefined {
  if (!isRecord(value)) return undefined;
  const reason = endedReasons.find((known) => known === value.reason);
  if (reason === undefined) return undefined;
  const { answeredBy, at } = value;
  const named =
    reason === 'answered' &&
    typeof answeredBy === 'string' &&
    answeredBy.length <= maxAnsweredByChars;
  return {
    reason,
    ...(named ? { answeredBy } : {}),
    at: typeof at === 'number' && Number.isFinite(at) ? at : now,
  };
}

/**
 * The entry of `id` in a change event's `ended` map: an own key only (never one of the prototype's,
 * `__proto__` included), and only when the map is a plain record.
 */
export function endingIn(map: unknown, id: string, now: number): Ended | undefined {
  if (!isRecord(map) || !Object.prototype.hasOwnProperty.call(map, id)) return undefined;
  return endingOf(map[id], now);
}
