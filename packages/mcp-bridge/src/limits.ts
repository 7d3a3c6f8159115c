/**
 * Bounds on what a server sends. A server is untrusted: a huge requestState is echoed on every
 * retry, a round of a million inputRequests asks a million questions, a huge form schema costs the
 * host memory and time before anyone sees it. Past a bound the question is refused before anyone is
 * asked: a legacy push gets JSON-RPC -32602, a modern call ends with `invalid_params` and sends
 * nothing more.
 */
import { resolveFormLimits, type FormLimits } from '@waitfor/core/form';
import { BridgeError, messageOf } from './bridgeError';

/** Bounds on what a server sends; a host may change each (attachWaitFor, connect, or per call). */
export interface BridgeLimits {
  /**
   * Longest `requestState` (modern era) kept and echoed, in characters. Default 4,194,304 (4 Mi):
   * servers keep real state a few KB big, and the state travels again with every retry.
   */
  requestState: number;
  /** Most inputRequests in one `input_required` round (modern era). Default 100: each is a question. */
  inputRequests: number;
  /** Bounds on a form's schema, for `parseFormSchema` (unset ones: core's `defaultFormLimits`). */
  form: Partial<FormLimits>;
  /** Longest task id kept, in characters (Tasks extension). Default 256: it is echoed in every request and header. */
  taskId: number;
  /** Most inputRequests keys one task may have open at once (its questions). Default 100. */
  taskOpenKeys: number;
  /** Most inputRequests keys remembered per task (answered, never asked again). Default 1000. */
  taskKeys: number;
}

/** The bounds used unless the host passes others. */
export const defaultBridgeLimits: Readonly<BridgeLimits> = Object.freeze({
  requestState: 4 * 1024 * 1024,
  inputRequests: 100,
  form: {},
  taskId: 256,
  taskOpenKeys: 100,
  taskKeys: 1000,
});

/** The defaults with the host's layers applied, key by key (later layers win); throws 'invalid_options'. */
export function resolveLimits(...layers: Array<Partial<BridgeLimits> | undefined>): BridgeLimits {
  let limits: BridgeLimits = defaultBridgeLimits;
  for (const layer of layers)
    if (layer) limits = { ...limits, ...layer, form: { ...limits.form, ...layer.form } };
  for (const key of [
    'requestState',
    'inputRequests',
    'taskId',
    'taskOpenKeys',
    'taskKeys',
  ] as const) {
    if (typeof limits[key] !== 'number' || !(limits[key] >= 0))
      throw new BridgeError('invalid_options', `limits.${key} must be a number ≥ 0`);
  }
  try {
    // Core checks its own limits: a bad one is the host's mistake, said now rather than per question.
    resolveFormLimits({ limits: limits.form });
  } catch (error) {
    throw new BridgeError('invalid_options', `limits.form: ${messageOf(error)}`, { cause: error });
  }
  return limits;
}

/** Throws 'invalid_params' when `size` is past `limit` (an unknown size or limit never is). */
export function checkBound(
  what: string,
  size: number | undefined,
  limit: number | undefined,
  unit: string,
): void {
  if (size !== undefined && limit !== undefined && size > limit)
    throw new BridgeError('invalid_params', `${what} is past the limit of ${limit} ${unit}`);
}

/** Throws 'invalid_params' unless `state` is absent or a string within `limit` characters. */
export function checkRequestState(state: unknown, limit: number | undefined, prefix = ''): void {
  if (state !== undefined && typeof state !== 'string')
    throw new BridgeError('invalid_params', `${prefix}requestState must be a string`);
  checkBound('requestState', (state as string | undefined)?.length, limit, 'characters');
}
