import type { Answer, WaitforErrorCode, WaitforErrorOptions } from '@waitfor/core';
import { WaitforError } from '@waitfor/core';
import { brandError } from '@waitfor/runtime';
import { findInCauses } from './findInCauses';

/** What went wrong, as a stable string a host can switch on. */
export type LegacySpecErrorCode =
  /**
   * Shared with every waitfor package, one meaning (see WaitforErrorCode): `invalid_options` (a
   * bad option passed to createLegacySpec / legacySpec), `aborted` (the signal given to
   * `waitForCompletion` aborted; an aborted call ends in the bridge's BridgeError `aborted`).
   */
  | Extract<WaitforErrorCode, 'invalid_options' | 'aborted'>
  /** A URL elicitation of a -32042 error was declined or cancelled; `answers` holds every Answer. */
  | 'elicitation_refused'
  /** The retry after a -32042 failed with -32042 again, naming an elicitation already handled. */
  | 'elicitation_loop'
  /** More -32042 rounds than `maxRetries` allowed, each naming new elicitations. */
  | 'retries_exceeded'
  /** A -32042 error whose `data.elicitations` is not a list of URL elicitations with ids (or has oversized ids or urls). */
  | 'invalid_error_data'
  /** A -32042 error listing more URL elicitations than `maxElicitations`; nobody was asked. */
  | 'too_many_elicitations'
  /** `waitForCompletion` named an elicitation this extension has never seen. */
  | 'unknown_elicitation'
  /** `waitForCompletion` ran out of time before `notifications/elicitation/complete` arrived. */
  | 'completion_timeout'
  /** The URL elicitation closed (see its `reason`), so no completion will be recorded. */
  | 'elicitation_closed';

/** Options of a LegacySpecError beyond its code and message. */
export interface LegacySpecErrorOptions extends Pick<WaitforErrorOptions, 'cause'> {
  /** The Answers given to the Requests of a -32042 error, in the order the server listed them. */
  answers?: readonly Answer[];
  /** The elicitationId the error is about, when there is one. */
  elicitationId?: string;
}

/**
 * The one error class of @waitfor/legacy-spec: a WaitforError (`isWaitforError` is true for it)
 * with its own marker (`isLegacySpecError`), recognised across installed copies.
 */
export class LegacySpecError extends WaitforError<LegacySpecErrorCode, LegacySpecErrorOptions> {
  /** The Answers given to the Requests of a -32042 error, in the order the server listed them. */
  declare readonly answers: readonly Answer[] | undefined;
  /** The elicitationId the error is about, when there is one. */
  declare readonly elicitationId: string | undefined;
  /** True for a LegacySpecError from any installed copy of @waitfor/legacy-spec (a Symbol.for brand). */
  declare static isInstance: (value: unknown) => value is LegacySpecError;
}

/** True for a LegacySpecError from any installed copy of @waitfor/legacy-spec. */
export const isLegacySpecError = brandError(
  LegacySpecError,
  'waitfor.legacy-spec.error',
  'LegacySpecError',
  ['answers', 'elicitationId'],
);

/**
 * The LegacySpecError in `error` or its `cause` chain (another extension around this one may wrap
 * what it threw), or undefined.
 */
export const legacySpecErrorOf = (error: unknown): LegacySpecError | undefined =>
  findInCauses(error, (link) => (LegacySpecError.isInstance(link) ? link : undefined));
