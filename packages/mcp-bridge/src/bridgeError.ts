import type { AbortSignalLike, WaitforErrorCode, WaitforErrorOptions } from '@waitfor/core';
import { WaitforError } from '@waitfor/core';
import { brandError, isAborted, isRecord } from '@waitfor/runtime';

/** What went wrong, as a string literal a caller can switch on. */
export type BridgeErrorCode =
  /**
   * Shared with every waitfor package, one meaning (see WaitforErrorCode): `invalid_options` (e.g.
   * `maxRounds: 0`, an unknown client object), `invalid_answer` (an answer given to `resume` fails
   * its form schema, `errors` per field; nothing was sent), `invalid_suspension` (a suspension
   * given to `resume` that cannot be resumed), `answer_mismatch` (answers given to `resume` do not
   * match its Requests), `rounds_exceeded` (`lastResult` holds the last `input_required` result),
   * `aborted` (the caller's signal aborted the call).
   */
  | Extract<
      WaitforErrorCode,
      | 'invalid_options'
      | 'invalid_answer'
      | 'invalid_suspension'
      | 'answer_mismatch'
      | 'rounds_exceeded'
      | 'aborted'
    >
  /** Malformed data from a peer (elicitation params, an input request, a result). */
  | 'invalid_params'
  /** A result carried a `resultType` this bridge does not know. */
  | 'unknown_result_type'
  /** The call's own time budget ran out (the person's answer time is not counted). */
  | 'timeout'
  /** An inputRequest the host has no handler for (sampling or roots without a handler). */
  | 'unsupported_input_request'
  /** `durable: true` on a legacy-era connection, whose questions are bound to the open connection. */
  | 'durable_unsupported'
  /** The host's waitFor (or a host handler) threw instead of answering. */
  | 'wait_failed'
  /** The peer answered with a JSON-RPC error; `rpc` keeps its code, message and data. */
  | 'server_error'
  /** The SDK failed locally (connection closed, invalid result, …); `cause` keeps its error. */
  | 'client_error'
  /** A task-backed call's task failed (Tasks extension); `rpc` keeps the JSON-RPC error it failed with. */
  | 'task_failed'
  /** A task-backed call's task was cancelled (by the server, or `tasks/cancel`). */
  | 'task_cancelled';

/** The JSON-RPC error a peer sent on the wire, kept apart from local failures. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** Options of a BridgeError. */
export interface BridgeErrorOptions extends Pick<WaitforErrorOptions, 'cause' | 'errors'> {
  rpc?: WireError;
  lastResult?: unknown;
  details?: Record<string, unknown>;
}

/**
 * The one error class of @waitfor/mcp-bridge, local failures and wrapped wire errors alike: a
 * WaitforError (`isWaitforError` is true for it) with its own marker (`isBridgeError`).
 */
export class BridgeError extends WaitforError<BridgeErrorCode, BridgeErrorOptions> {
  /** Set only when the peer sent a JSON-RPC error (`code: 'server_error'`). */
  declare readonly rpc: WireError | undefined;
  /** For `rounds_exceeded`: the last `input_required` result received. */
  declare readonly lastResult: unknown;
  /** Extra facts (e.g. the request id of `invalid_answer`, missing ids of `answer_mismatch`). */
  declare readonly details: Record<string, unknown> | undefined;
  /** True for a BridgeError from any installed copy of @waitfor/mcp-bridge (a Symbol.for brand). */
  declare static isInstance: (value: unknown) => value is BridgeError;
}

/** True for a BridgeError from any installed copy of @waitfor/mcp-bridge. */
export const isBridgeError = brandError(BridgeError, 'waitfor.mcp-bridge.error', 'BridgeError', [
  'rpc',
  'lastResult',
  'details',
]);

/** The 'aborted' BridgeError every aborted call or question ends with. */
export const abortedError = (cause?: unknown): BridgeError =>
  new BridgeError('aborted', 'The call was aborted', { cause });

/** The message of whatever was thrown. */
export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * Turn whatever an SDK call threw into a BridgeError: JSON-RPC errors from the peer keep their
 * code/message/data under `rpc`; local SDK errors become `client_error`; anything thrown once
 * `signal` aborted becomes `aborted`.
 */
export function toBridgeError(error: unknown, signal?: AbortSignalLike): BridgeError {
  if (BridgeError.isInstance(error)) return error;
  if (isAborted(signal)) return abortedError(error);
  const { code, name, message, data } = isRecord(error) ? error : ({} as Record<string, unknown>);
  // A peer's JSON-RPC error arrives as ProtocolError (v2) or McpError (v1). Other errors with a
  // numeric code are local (v1's StreamableHTTPError carries an HTTP status), and v1 reports its
  // own closed connections and timeouts as McpError -32000 / -32001 too: only these fixed messages
  // tell them apart from a server's error with the same code and text.
  if (
    typeof code === 'number' &&
    (name === 'ProtocolError' ||
      (name === 'McpError' &&
        !/^MCP error -3200[01]: (Connection closed|Request (was cancelled|timed out)|Maximum total timeout exceeded)$/.test(
          String(message),
        )))
  ) {
    // v1 prefixes the peer's message with "MCP error <code>: ".
    const text = String(message).replace(name === 'McpError' ? /^MCP error -?\d+: / : '', '');
    return new BridgeError('server_error', `Server error ${code}: ${text}`, {
      cause: error,
      rpc: { code, message: text, ...(data !== undefined && { data }) },
    });
  }
  return code === 'UNSUPPORTED_RESULT_TYPE'
    ? new BridgeError('unknown_result_type', String(message), { cause: error })
    : new BridgeError('client_error', messageOf(error), { cause: error });
}
