import { WaitforError } from '@waitfor/core';
import { brandError } from '@waitfor/runtime';

/** What went wrong in @waitfor/react. */
export type WaitforReactErrorCode = 'missing_provider';

/**
 * The one error class of @waitfor/react: a WaitforError (`isWaitforError` is true for it) with its
 * own marker (`isWaitforReactError`), recognised across installed copies.
 */
export class WaitforReactError extends WaitforError<WaitforReactErrorCode, { cause?: unknown }> {
  /** True for a WaitforReactError from any installed copy of @waitfor/react (a Symbol.for brand). */
  declare static isInstance: (value: unknown) => value is WaitforReactError;
}

/** True for a WaitforReactError from any installed copy of @waitfor/react. */
export const isWaitforReactError = brandError(
  WaitforReactError,
  'waitfor.react.error',
  'WaitforReactError',
);
