import { WaitforError } from '@waitfor/core';
import { brandClass } from '@waitfor/runtime';

/** What went wrong in @waitfor/react. */
export type WaitforReactErrorCode = 'missing_provider';

/**
 * The one error class of @waitfor/react: a WaitforError (`isWaitforError` is true for it) with its
 * own marker (`isWaitforReactError`), recognised across installed copies.
 */
export class WaitforReactError extends WaitforError<WaitforReactErrorCode> {
  constructor(code: WaitforReactErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, { cause: options?.cause });
    this.name = 'WaitforReactError';
  }

  /** True for a WaitforReactError from any installed copy of this package. */
  static override isInstance: (value: unknown) => value is WaitforReactError = brandClass(
    this,
    'waitfor.react.error',
  );
}

/** True for a WaitforReactError from any installed copy of @waitfor/react. */
export const isWaitforReactError = (value: unknown): value is WaitforReactError =>
  WaitforReactError.isInstance(value);
