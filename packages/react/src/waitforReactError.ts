import { brandClass } from '@waitfor/runtime';

/** What went wrong in @waitfor/react. */
export type WaitforReactErrorCode = 'missing_provider';

/** The one error class of @waitfor/react; recognised across installed copies by its brand. */
export class WaitforReactError extends Error {
  readonly code: WaitforReactErrorCode;

  constructor(code: WaitforReactErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WaitforReactError';
    this.code = code;
  }

  /** True for a WaitforReactError from any installed copy of this package. */
  static isInstance: (value: unknown) => value is WaitforReactError = brandClass(
    this,
    'waitfor.react.error',
  );
}
