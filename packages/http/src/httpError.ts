import type { Ended, WaitforErrorCode, WaitforErrorOptions } from '@waitfor/core';
import { WaitforError } from '@waitfor/core';
import { brandError } from '@waitfor/runtime';

/** What went wrong between a browser and the handler, as a stable string a caller can switch on. */
export type HttpInboxErrorCode =
  /**
   * Shared with every waitfor package, one meaning (see WaitforErrorCode): `invalid_answer` (the
   * answer was malformed, too large or not JSON: 400, 413, 415), `listener_failed` (a listener of
   * the remote inbox threw; reported to its `onError`).
   */
  | Extract<WaitforErrorCode, 'invalid_answer' | 'listener_failed'>
  /** No credentials, or credentials the handler did not accept (401). */
  | 'unauthorized'
  /** Refused: a missing or foreign Origin (403), or too many streams (429). */
  | 'refused'
  /** The question does not exist for this caller (404). */
  | 'not_found'
  /** Already answered, cancelled or expired, here or elsewhere (409): `ended` says which, where known. */
  | 'conflict'
  /** The answer does not fit the question's form (422): `errors` says why, field by field. */
  | 'invalid_form'
  /** The server failed or could not be reached, or the question is open again (503): send it again. */
  | 'unavailable'
  /** A remote inbox cannot ask: questions are asked on the server. */
  | 'unsupported'
  /** The remote inbox was closed. */
  | 'closed';

/** Options of an HttpInboxError. */
export interface HttpInboxErrorOptions extends Pick<WaitforErrorOptions, 'cause' | 'errors'> {
  /** The HTTP status, when a response was received. */
  status?: number;
  /** A 409: how the question ended (core's `Ended` reason), where the server's inbox can say. */
  ended?: Ended['reason'];
  /** A 409 of a question answered elsewhere: who answered it, where the server's inbox knows. */
  answeredBy?: string;
}

/**
 * The one error class of @waitfor/http: a WaitforError (`isWaitforError` is true for it) with its
 * own marker (`isHttpInboxError`), recognised across installed copies.
 */
export class HttpInboxError extends WaitforError<HttpInboxErrorCode, HttpInboxErrorOptions> {
  /** The HTTP status, when a response was received. */
  declare readonly status: number | undefined;
  /** A 409: how the question ended (`answered`, `expired`, `cancelled`), where the server says. */
  declare readonly ended: Ended['reason'] | undefined;
  /** A 409: who answered the question first, where the server says. */
  declare readonly answeredBy: string | undefined;
  /** True for an HttpInboxError from any installed copy of @waitfor/http (a Symbol.for brand). */
  declare static isInstance: (value: unknown) => value is HttpInboxError;
}

/** True for an HttpInboxError from any installed copy of @waitfor/http. */
export const isHttpInboxError = brandError(HttpInboxError, 'waitfor.http.error', 'HttpInboxError', [
  'status',
  'ended',
  'answeredBy',
]);
