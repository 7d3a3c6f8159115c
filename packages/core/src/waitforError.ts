import { brandClass, reportUncaught } from '@waitfor/runtime';

/**
 * What went wrong, as a stable string a caller can switch on. The one vocabulary of waitfor: a
 * package's error class takes the codes it shares from here (same spelling, same meaning) and adds
 * its own.
 */
export type WaitforErrorCode =
  /** A malformed Request (`path` names the field). */
  | 'invalid_request'
  /**
   * An Answer that is refused: malformed, or an accepted form whose data does not fit its schema
   * (`errors` then holds one message per field). Nothing was changed or sent.
   */
  | 'invalid_answer'
  /** A form schema that cannot be read or is not allowed. */
  | 'invalid_schema'
  /** A bad option passed by the host to a waitfor function (a limit, a count, a missing handler). */
  | 'invalid_options'
  /** A Request whose id is already open. */
  | 'duplicate_request'
  /** Answers given to a suspension do not match its Requests (missing, foreign, duplicate). */
  | 'answer_mismatch'
  /** A tool's pending value that is not a list of Requests. */
  | 'invalid_pending'
  /** A suspension that cannot be resumed (malformed, oversized, or not one this code wrote). */
  | 'invalid_suspension'
  /** The re-ask loop hit its round cap. */
  | 'rounds_exceeded'
  /** The caller's signal aborted the work. */
  | 'aborted'
  /**
   * A host's listener threw while a change was announced; `cause` keeps what it threw. Reported,
   * never thrown: the other listeners and the change itself went on.
   */
  | 'listener_failed';

/**
 * Per-field messages, the one shape every waitfor error and form uses: the field's name as key
 * (`''` for the form as a whole), a message a person can read as value.
 */
export type FieldErrors = Readonly<Record<string, string>>;

/** Options of a WaitforError: the underlying cause, the offending field or per-field messages. */
export interface WaitforErrorOptions {
  cause?: unknown;
  /** Dotted path of the offending field, e.g. `expiresAt` or `properties.age.default`. */
  path?: string;
  /** For a refused form: one message per field. */
  errors?: FieldErrors;
}

/**
 * The error base of every waitfor package: core throws it, and each package's own error
 * (BridgeError, StoreError, HttpInboxError, …) is a subclass with its own marker. Recognised
 * across installed copies by a `Symbol.for` brand (`isWaitforError`), never by instanceof.
 * `WaitforError` alone is any package's error (its code a string); core's own are
 * `WaitforError<WaitforErrorCode>`. The options a class names (`path`, `errors`; a subclass's own,
 * such as `status` or `details`) become properties of the error, so a subclass only declares them.
 */
export class WaitforError<
  Code extends string = string,
  Options extends WaitforErrorOptions = WaitforErrorOptions,
> extends Error {
  // `declare`: assigned in the constructor, so no class-field definitions are emitted (bundle size).
  /** Stable machine-readable code. */
  declare readonly code: Code;
  /** Dotted path of the offending field, when the error is about one field. */
  declare readonly path: string | undefined;
  /** One message per offending field, when the error is about a form's fields. */
  declare readonly errors: FieldErrors | undefined;

  constructor(code: Code, message: string, options?: Options) {
    // Error reads `cause` from the options only when the key is present.
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    // The facts of this class: each an own property, undefined when not given.
    const given = (options ?? {}) as Record<string, unknown>;
    for (const key of (new.target as unknown as typeof WaitforError).facts)
      (this as Record<string, unknown>)[key] = given[key];
  }

  /** @internal The options that become properties of the error; a subclass adds its own. */
  static facts: readonly string[] = ['path', 'errors'];

  /**
   * True when `value` is an error of any waitfor package, from any installed copy (a Symbol.for
   * brand every subclass inherits). A subclass's own `isInstance` checks its own marker.
   */
  static isInstance = brandClass<WaitforError>(this, 'waitfor.error', 'WaitforError');
}

/** True when `value` is an error of any waitfor package, from any installed copy. */
export const isWaitforError = (value: unknown): value is WaitforError =>
  WaitforError.isInstance(value);

/**
 * @internal The report of core's listener sets: what a listener threw goes to `onError` as a
 * `listener_failed` error (default: the platform's reportError, or the console).
 */
export const listenerReport =
  (onError: ((error: WaitforError<WaitforErrorCode>) => void) | undefined) =>
  (cause: unknown): void =>
    (onError ?? reportUncaught)(
      new WaitforError<WaitforErrorCode>('listener_failed', 'A listener threw', { cause }),
    );
