import { brandClass } from '@waitfor/runtime';

/** What went wrong, as a stable string a caller can switch on. */
export type WaitforErrorCode =
  | 'invalid_request'
  | 'invalid_answer'
  | 'invalid_schema'
  | 'invalid_options'
  | 'duplicate_request'
  | 'answer_mismatch'
  | 'invalid_pending'
  | 'invalid_suspension'
  | 'rounds_exceeded'
  | 'aborted';

/** Options of a WaitforError: the underlying cause and the path of the offending field. */
export interface WaitforErrorOptions {
  cause?: unknown;
  /** Dotted path of the offending field, e.g. `expiresAt` or `properties.age.default`. */
  path?: string;
}

/** The one error class of @waitfor/core. Recognised across installed copies by `isInstance`. */
export class WaitforError extends Error {
  // `declare`: assigned in the constructor, so no class-field definitions are emitted (bundle size).
  /** Stable machine-readable code. */
  declare readonly code: WaitforErrorCode;
  /** Dotted path of the offending field, when the error is about one field. */
  declare readonly path: string | undefined;

  constructor(code: WaitforErrorCode, message: string, options: WaitforErrorOptions = {}) {
    // Error reads `cause` from the options only when the key is present.
    super(message, options);
    this.name = 'WaitforError';
    this.code = code;
    this.path = options.path;
  }

  /** True when `value` is a WaitforError from any copy of @waitfor/core (a Symbol.for brand, not instanceof). */
  static isInstance: (value: unknown) => value is WaitforError = brandClass(this, 'waitfor.error');
}
