import type { Request } from '../types';
import type { JsonValue } from './jsonSafe';

const brand: unique symbol = Symbol.for('waitfor.pending');

/**
 * What a tool returns instead of a result when it needs a person: the Requests to ask, keyed by
 * input key (the key its Answer comes back under), and optional JSON-safe state echoed back.
 */
export interface Pending {
  readonly requests: Readonly<Record<string, Request>>;
  readonly state?: JsonValue;
}

/**
 * Returned by a tool in place of a result: ask these Requests (keyed by input key), then run the
 * tool again with their Answers and `state`. The runner checks both (a malformed one is a typed
 * error), so this only marks the object.
 */
export function pending(requests: Record<string, Request>, state?: JsonValue): Pending {
  const marked: Pending = state === undefined ? { requests } : { requests, state };
  // A Symbol.for brand, so a Pending built by another installed copy of core is still one.
  return Object.defineProperty(marked, brand, { value: true });
}

/** True when a tool's return value is a Pending (made by `pending`), not a result. */
export const isPending = (value: unknown): value is Pending =>
  typeof value === 'object' && value !== null && (value as { [brand]?: unknown })[brand] === true;
