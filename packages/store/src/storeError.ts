/** What went wrong, as a stable string a caller can switch on. */
export type StoreErrorCode =
  /** The database cannot be reached (refused, dropped, shut down); `cause` keeps the driver's error. */
  | 'unavailable'
  /** The store (or the inbox) was closed by its host. */
  | 'closed'
  /** A bad option: a scope that is empty or too long, a driver without a pool, a negative interval. */
  | 'invalid_options'
  /** An Answer that does not fit its question's form schema; nothing was changed. `errors` says why. */
  | 'invalid_answer'
  /** The database holds a newer schema than this copy of @waitfor/store knows, or a migration failed. */
  | 'migration_failed'
  /** The database refused a statement for another reason; `cause` keeps the driver's error. */
  | 'query_failed'
  /** A durable call ended in an error (the bridge's, kept in `details`), or is unknown to the store. */
  | 'call_failed';

/** Options of a StoreError. */
export interface StoreErrorOptions {
  cause?: unknown;
  /** For `invalid_answer`: one message per offending form field. */
  errors?: Record<string, string>;
  /** For `call_failed`: the stored error of the call (`code`, `message`). */
  details?: Record<string, unknown>;
}

const brand = Symbol.for('waitfor.store.error');

/** The one error class of @waitfor/store. Recognised across installed copies by `isInstance`. */
export class StoreError extends Error {
  /** Stable machine-readable code. */
  declare readonly code: StoreErrorCode;
  /** For `invalid_answer`: one message per offending form field. */
  declare readonly errors: Record<string, string> | undefined;
  /** For `call_failed`: the stored error of the call (`code`, `message`). */
  declare readonly details: Record<string, unknown> | undefined;

  constructor(code: StoreErrorCode, message: string, options: StoreErrorOptions = {}) {
    super(message, options.cause === undefined ? {} : { cause: options.cause });
    this.name = 'StoreError';
    this.code = code;
    this.errors = options.errors;
    this.details = options.details;
  }

  /** True when `value` is a StoreError from any copy of @waitfor/store (a Symbol.for brand, not instanceof). */
  static isInstance(value: unknown): value is StoreError {
    return (value as Record<symbol, unknown> | null | undefined)?.[brand] === true;
  }
}

// On the prototype: no per-instance cost, and never an own key that equality checks would see.
(StoreError.prototype as unknown as Record<symbol, unknown>)[brand] = true;

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
