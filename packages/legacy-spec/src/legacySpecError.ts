import type { Answer } from '@waitfor/core';
import { brandClass } from '@waitfor/runtime';
import { findInCauses } from './findInCauses';

/** What went wrong, as a stable string a host can switch on. */
export type LegacySpecErrorCode =
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
  /** The signal given to `waitForCompletion` aborted (an aborted call ends in the bridge's BridgeError `aborted`). */
  | 'aborted'
  /** The URL elicitation closed (see its `reason`), so no completion will be recorded. */
  | 'elicitation_closed'
  /** A bad option passed to createLegacySpec / legacySpec. */
  | 'invalid_options';

/** Options of a LegacySpecError beyond its code and message. */
export interface LegacySpecErrorOptions {
  cause?: unknown;
  /** The Answers given to the Requests of a -32042 error, in the order the server listed them. */
  answers?: readonly Answer[];
  /** The elicitationId the error is about, when there is one. */
  elicitationId?: string;
}

/** The one error class of @waitfor/legacy-spec; recognise it across installed copies with `isInstance`. */
export class LegacySpecError extends Error {
  // `declare`: assigned in the constructor, so no field initialisers are emitted.
  declare readonly code: LegacySpecErrorCode;
  declare readonly answers: readonly Answer[] | undefined;
  declare readonly elicitationId: string | undefined;

  constructor(code: LegacySpecErrorCode, message: string, options: LegacySpecErrorOptions = {}) {
    // No `cause` property at all when there is none.
    super(message, options.cause === undefined ? undefined : options);
    this.name = 'LegacySpecError';
    this.code = code;
    this.answers = options.answers;
    this.elicitationId = options.elicitationId;
  }

  /** True for a LegacySpecError from any installed copy of this package. */
  static isInstance: (value: unknown) => value is LegacySpecError = brandClass(
    this,
    'waitfor.legacy-spec.error',
  );
}

/**
 * The LegacySpecError in `error` or its `cause` chain (another extension around this one may wrap
 * what it threw), or undefined.
 */
export const legacySpecErrorOf = (error: unknown): LegacySpecError | undefined =>
  findInCauses(error, (link) => (LegacySpecError.isInstance(link) ? link : undefined));
