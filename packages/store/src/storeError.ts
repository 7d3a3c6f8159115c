import type { WaitforErrorCode, WaitforErrorOptions } from '@waitfor/core';
import { WaitforError } from '@waitfor/core';
import { brandError } from '@waitfor/runtime';

/** What went wrong, as a stable string a caller can switch on. */
export type StoreErrorCode =
  /**
   * Shared with every waitfor package, one meaning (see WaitforErrorCode): `invalid_options` (a
   * scope that is empty or too long, a driver without a pool, a negative interval),
   * `invalid_answer` (an Answer that does not fit its question's form schema or is too large;
   * nothing was changed, `errors` says why field by field), `listener_failed` (an inbox listener
   * threw; reported to the store's `onError`).
   */
  | Extract<WaitforErrorCode, 'invalid_options' | 'invalid_answer' | 'listener_failed'>
  /** The database cannot be reached (refused, dropped, shut down); `cause` keeps the driver's error. */
  | 'unavailable'
  /** The store (or the inbox) was closed by its host. */
  | 'closed'
  /** The database holds a newer schema than this copy of @waitfor/store knows, or a migration failed. */
  | 'migration_failed'
  /** The database refused a statement for another reason; `cause` keeps the driver's error. */
  | 'query_failed'
  /** A durable call ended in an error (the bridge's, kept in `details`), or is unknown to the store. */
  | 'call_failed';

/** Options of a StoreError. */
export interface StoreErrorOptions extends Pick<WaitforErrorOptions, 'cause' | 'errors'> {
  /** For `call_failed`: the stored error of the call (`code`, `message`). */
  details?: Record<string, unknown>;
}

/**
 * The one error class of @waitfor/store: a WaitforError (`isWaitforError` is true for it) with
 * its own marker (`isStoreError`), recognised across installed copies.
 */
export class StoreError extends WaitforError<StoreErrorCode, StoreErrorOptions> {
  /** For `call_failed`: the stored error of the call (`code`, `message`). */
  declare readonly details: Record<string, unknown> | undefined;
  /** True for a StoreError from any installed copy of @waitfor/store (a Symbol.for brand). */
  declare static isInstance: (value: unknown) => value is StoreError;
}

/** True for a StoreError from any installed copy of @waitfor/store. */
export const isStoreError = brandError(StoreError, 'waitfor.store.error', 'StoreError', [
  'details',
]);

// SQLSTATE classes that mean "the server is not there for us": connection exceptions (08),
// operator intervention such as a shutdown (57), insufficient resources (53).
const unavailableStates = /^(08|57|53)/;
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/** Turns a driver's error into a StoreError: `unavailable` for connection trouble, else `query_failed`. */
export function storeErrorOf(error: unknown): StoreError {
  if (StoreError.isInstance(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const down =
    (typeof code === 'string' && (unavailableStates.test(code) || unavailableCodes.has(code))) ||
    /Connection terminated|connection closed|Client has encountered a connection error/i.test(
      message,
    );
  return new StoreError(down ? 'unavailable' : 'query_failed', `The store failed: ${message}`, {
    cause: error,
  });
}
