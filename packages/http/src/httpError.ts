import { brandClass } from '@waitfor/runtime';

/** What went wrong between a browser and the handler, as a stable string a caller can switch on. */
export type HttpInboxErrorCode =
  /** No credentials, or credentials the handler did not accept (401). */
  | 'unauthorized'
  /** Refused: a missing or foreign Origin (403), or too many streams (429). */
  | 'refused'
  /** The question does not exist for this caller (404). */
  | 'not_found'
  /** Already answered, cancelled or expired, here or elsewhere (409). */
  | 'conflict'
  /** The answer was malformed, too large or not JSON (400, 413, 415). */
  | 'invalid_answer'
  /** The answer does not fit the question's form (422): `errors` says why, field by field. */
  | 'invalid_form'
  /** The server failed or could not be reached. */
  | 'unavailable'
  /** A remote inbox cannot ask: questions are asked on the server. */
  | 'unsupported'
  /** The remote inbox was closed. */
  | 'closed';

/** Options of an HttpInboxError. */
export interface HttpInboxErrorOptions {
  cause?: unknown;
  /** The HTTP status, when a response was received. */
  status?: number;
  /** Per-field messages of a form answer refused with 422. */
  errors?: Record<string, string>;
}

/** The one error class of @waitfor/http. Recognised across installed copies by `isInstance`. */
export class HttpInboxError extends Error {
  /** Stable machine-readable code. */
  declare readonly code: HttpInboxErrorCode;
  /** The HTTP status, when a response was received. */
  declare readonly status: number | undefined;
  /** Per-field messages of a form answer refused with 422. */
  declare readonly errors: Record<string, string> | undefined;

  constructor(code: HttpInboxErrorCode, message: string, options: HttpInboxErrorOptions = {}) {
    super(message, options);
    this.name = 'HttpInboxError';
    this.code = code;
    this.status = options.status;
    this.errors = options.errors;
  }

  /** True when `value` is an HttpInboxError from any copy of @waitfor/http (a Symbol.for brand). */
  static isInstance: (value: unknown) => value is HttpInboxError = brandClass(
    this,
    'waitfor.http.error',
  );
}
