import type { WaitforErrorCode, WaitforErrorOptions } from '@waitfor/core';
import { WaitforError } from '@waitfor/core';
import { brandError } from '@waitfor/runtime';

/** What went wrong, as a stable string a host can switch on. */
export type AiSdkErrorCode =
  /** Shared with every waitfor package (see WaitforErrorCode): a bad option passed to `mcpTools`. */
  | Extract<WaitforErrorCode, 'invalid_options'>
  /** The server answered the call with `isError: true`; `result` holds its whole CallToolResult. */
  | 'tool_error'
  /** The server's tools/list does not fit (not a list, a bad or repeated name, too many tools). */
  | 'invalid_tools';

/** Options of an AiSdkError beyond its code and message. */
export interface AiSdkErrorOptions extends Pick<WaitforErrorOptions, 'cause'> {
  /** For `tool_error`: the server's result, structured content and `_meta` included. */
  result?: Record<string, unknown>;
}

/**
 * The one error class of @waitfor/ai-sdk: a WaitforError (`isWaitforError` is true for it) with
 * its own marker (`isAiSdkError`), recognised across installed copies.
 */
export class AiSdkError extends WaitforError<AiSdkErrorCode, AiSdkErrorOptions> {
  /** For `tool_error`: the server's result, structured content and `_meta` included. */
  declare readonly result: Record<string, unknown> | undefined;
  /** True for an AiSdkError from any installed copy of @waitfor/ai-sdk (a Symbol.for brand). */
  declare static isInstance: (value: unknown) => value is AiSdkError;
}

/** True for an AiSdkError from any installed copy of @waitfor/ai-sdk. */
export const isAiSdkError = brandError(AiSdkError, 'waitfor.ai-sdk.error', 'AiSdkError', [
  'result',
]);
