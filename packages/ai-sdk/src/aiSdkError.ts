import { brandClass } from '@waitfor/runtime';

/** What went wrong, as a stable string a host can switch on. */
export type AiSdkErrorCode =
  /** The server answered the call with `isError: true`; `result` holds its whole CallToolResult. */
  | 'tool_error'
  /** The server's tools/list does not fit (not a list, a bad or repeated name, too many tools). */
  | 'invalid_tools'
  /** A bad option passed to `mcpTools`. */
  | 'invalid_options';

/** Options of an AiSdkError beyond its code and message. */
export interface AiSdkErrorOptions {
  cause?: unknown;
  /** For `tool_error`: the server's result, structured content and `_meta` included. */
  result?: Record<string, unknown>;
}

/** The one error class of @waitfor/ai-sdk; recognise it across installed copies with `isInstance`. */
export class AiSdkError extends Error {
  // `declare`: assigned in the constructor, so no field initialisers are emitted.
  declare readonly code: AiSdkErrorCode;
  declare readonly result: Record<string, unknown> | undefined;

  constructor(code: AiSdkErrorCode, message: string, options: AiSdkErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : options);
    this.name = 'AiSdkError';
    this.code = code;
    this.result = options.result;
  }

  /** True for an AiSdkError from any installed copy of this package. */
  static isInstance: (value: unknown) => value is AiSdkError = brandClass(
    this,
    'waitfor.ai-sdk.error',
  );
}
