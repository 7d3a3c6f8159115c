import type { WaitforErrorCode } from '@waitfor/core';
import { WaitforError } from '@waitfor/core';
import { brandClass } from '@waitfor/runtime';

/** What went wrong, as a stable string a host can switch on. */
export type LangGraphErrorCode =
  /**
   * Shared with every waitfor package (see WaitforErrorCode): a bad argument — no tool name, a
   * source that is not a bridge, a call option the adapter sets itself (`durable`).
   */
  Extract<WaitforErrorCode, 'invalid_options'>;

/** Options of a LangGraphError beyond its code and message. */
export interface LangGraphErrorOptions {
  cause?: unknown;
}

/**
 * The one error class of @waitfor/langgraph: a WaitforError (`isWaitforError` is true for it) with
 * its own marker (`isLangGraphError`), recognised across installed copies.
 */
export class LangGraphError extends WaitforError<LangGraphErrorCode> {
  constructor(code: LangGraphErrorCode, message: string, options: LangGraphErrorOptions = {}) {
    super(code, message, { cause: options.cause });
    this.name = 'LangGraphError';
  }

  /** True for a LangGraphError from any installed copy of this package. */
  static override isInstance: (value: unknown) => value is LangGraphError = brandClass(
    this,
    'waitfor.langgraph.error',
  );
}

/** True for a LangGraphError from any installed copy of @waitfor/langgraph. */
export const isLangGraphError = (value: unknown): value is LangGraphError =>
  LangGraphError.isInstance(value);
