/**
 * A bridge call's options: their types, and the one resolver that fills in what a call leaves unset
 * from its client's bridge. What an era forbids is checked by its own `options.ts`.
 */
import type { AbortSignalLike, WaitFor } from '@waitfor/core';
// The cap on input_required retries per call: the round engine's default, as for core's tools.
import { DEFAULT_MAX_ROUNDS } from '@waitfor/core/tools';
import { cancelled, DEFAULT_MAX_ATTEMPTS } from './askPerson';
import { BridgeError } from './bridgeError';
import {
  serverNameOf,
  type BridgeState,
  type RootsHandler,
  type SamplingHandler,
} from './bridgeState';
import { servedModes, type ElicitationMode } from './capabilities';
import type { ClientPort } from './clientPort';
import type { BridgeExtension } from './extension';
import { defaultBridgeLimits, resolveLimits, type BridgeLimits } from './limits';
import type { CallProgress } from './types';

/** Options of a bridge call. Unset ones come from the client's attachment. */
export interface CallOptions {
  signal?: AbortSignalLike;
  /** The server's progress notifications for this call (each wire leg asks for them). */
  onprogress?: (progress: CallProgress) => void;
  /** A progress notification restarts the call's timeout (legacy era: the pausable budget). */
  resetTimeoutOnProgress?: boolean;
  /** With `resetTimeoutOnProgress`: one request's bound in ms, whatever the progress (the SDK's). */
  maxTotalTimeout?: number;
  /**
   * Time budget in ms. Modern era: per wire leg (the person's time between legs never counts).
   * Legacy era: for the whole call, paused while a question is open. Default 60 000; `Infinity`
   * for none. An SDK request waits at most 2^31 - 1 ms (about 24.8 days), whatever is asked.
   */
  timeout?: number;
  /** Cap on input_required retries (modern era, default 10). */
  maxRounds?: number;
  /**
   * A waitFor for this call's questions, instead of the attachment's (modern era: also without an
   * attachment). Legacy era: the call must be the only bridge call in flight on the client, like
   * with its own `modes` or `maxAttempts` (else `invalid_options`, before anything is sent).
   */
  waitFor?: WaitFor;
  /** Modes served for this call: with an attachment, among the ones it declared. */
  modes?: readonly ElicitationMode[];
  /** Modern era only: legacy-era pushes go to the attachment's handlers (`invalid_options`). */
  sampling?: SamplingHandler;
  /** Modern era only, as `sampling`. */
  roots?: RootsHandler;
  /** Who asks, as shown to the person ('' counts as unset). */
  serverName?: string;
  maxAttempts?: number;
  /** Wrap this call (`aroundCall`); `setup` and `inboundRequest` are the attachment's extensions' only. */
  extensions?: readonly BridgeExtension[];
  /** Bounds on what the server sends, over the attachment's key by key (legacy era: as `waitFor`). */
  limits?: Partial<BridgeLimits>;
}

/** Options of a durable call. */
export interface DurableCallOptions extends CallOptions {
  durable: true;
}

/** Options of resume; `durable` defaults to true (a further round suspends again). */
export interface ResumeOptions extends CallOptions {
  durable?: boolean;
}

/** @internal One call's options, its own else its bridge's. */
export interface CallSettings {
  port: ClientPort;
  serverName: string;
  bridge: BridgeState | undefined;
  /** Set when neither the call nor its bridge gave one (durable calls may do without). */
  waitFor: WaitFor | undefined;
  modes: readonly ElicitationMode[];
  sampling: SamplingHandler | undefined;
  roots: RootsHandler | undefined;
  maxAttempts: number;
  limits: BridgeLimits;
  extensions: readonly BridgeExtension[];
  /** The attachment's configured server identity (task references), if any. */
  serverId: string | undefined;
}

/** A waitFor that cancels at once: what a durable call without one hands its questions to. */
export const noWaitFor: WaitFor = async (request) => cancelled(request);

/** The settings of one call: its own options, else its client's bridge's (both eras). */
export function resolveCall(
  port: ClientPort,
  bridge: BridgeState | undefined,
  options: CallOptions,
): CallSettings {
  const attached = bridge?.settings;
  const waitFor = options.waitFor ?? attached?.waitFor;
  const modes =
    options.modes !== undefined || bridge === undefined ? servedModes(options.modes) : bridge.modes;
  // Either era: the server only asks what the client declared (modern: per request).
  if (bridge !== undefined && modes.some((mode) => !bridge.modes.includes(mode)))
    throw new BridgeError('invalid_options', `Undeclared modes (declared: ${bridge.modes})`);
  return {
    port,
    serverName: serverNameOf(port, options.serverName || attached?.serverName),
    bridge,
    waitFor,
    modes,
    sampling: options.sampling ?? attached?.sampling,
    roots: options.roots ?? attached?.roots,
    // A call's own count is checked as the attachment's was (NaN would re-ask without end).
    maxAttempts: countOption(
      options.maxAttempts,
      attached?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      'maxAttempts',
    ),
    // Resolved (and checked) once per bridge: a call without its own limits reuses them.
    limits:
      options.limits === undefined
        ? (attached?.limits ?? defaultBridgeLimits)
        : resolveLimits(attached?.limits, options.limits),
    extensions: options.extensions ?? attached?.extensions ?? [],
    serverId: attached?.serverId,
  };
}

/** Default time budget of a call, in ms, as in both SDKs. */
export const DEFAULT_TIMEOUT = 60_000;

/**
 * The SDKs' progress options of a call, as the ports pass them on (resetting on progress needs a
 * progress handler: a no-op one when only the reset is asked for).
 */
export const progressOptions = ({
  onprogress,
  resetTimeoutOnProgress,
  maxTotalTimeout,
}: CallOptions) => ({
  onprogress: onprogress ?? (resetTimeoutOnProgress ? () => {} : undefined),
  resetTimeoutOnProgress,
  maxTotalTimeout,
});

/** A count option (`maxRounds`, `maxAttempts`): `fallback` when unset, else an integer ≥ 1; throws 'invalid_options'. */
export function countOption(value: number | undefined, fallback: number, name: string): number {
  const count = value ?? fallback;
  if (!Number.isInteger(count) || count < 1)
    throw new BridgeError('invalid_options', `${name} must be an integer ≥ 1`);
  return count;
}

/** The numeric options of a call, checked; throws 'invalid_options'. */
export function checkNumbers(options: CallOptions): { maxRounds: number; timeout: number } {
  const maxRounds = countOption(options.maxRounds, DEFAULT_MAX_ROUNDS, 'maxRounds');
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  if (typeof timeout !== 'number' || !(timeout > 0))
    throw new BridgeError('invalid_options', 'timeout must be a positive number');
  return { maxRounds, timeout };
}
