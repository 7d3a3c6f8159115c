import { brandClass } from '@waitfor/runtime';

/** What went wrong, as a stable string a host can switch on. */
export type LangGraphErrorCode =
  /**
   * The value a run was resumed with is not the Answers of the interrupted round: not an Answer or
   * a list of them, or not one Answer per Request of the round (nothing is sent to the server).
   */
  | 'invalid_resume'
  /** A bad argument: no tool name, a source that is not a bridge, a call option the adapter sets. */
  | 'invalid_options';

/** Options of a LangGraphError beyond its code and message. */
export interface LangGraphErrorOptions {
  cause?: unknown;
}

/** The one error class of @waitfor/langgraph; recognise it across installed copies with `isInstance`. */
export class LangGraphError extends Error {
  // `declare`: assigned in the constructor, so no field initialisers are emitted.
  declare readonly code: LangGraphErrorCode;

  constructor(code: LangGraphErrorCode, message: string, options: LangGraphErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : options);
    this.name = 'LangGraphError';
    this.code = code;
  }

  /** True for a LangGraphError from any installed copy of this package. */
  static isInstance: (value: unknown) => value is LangGraphError = brandClass(
    this,
    'waitfor.langgraph.error',
  );
}
