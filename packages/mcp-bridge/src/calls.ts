/**
 * tools/call, prompts/get and resources/read through the bridge, in either era.
 *
 * Modern era: the bridge's own input_required loop (or a durable suspension). Legacy era: one SDK
 * call whose pushed questions the attached handler answers, under a deadline that pauses while a
 * question is open. Every call runs through the extensions' `aroundCall` hooks.
 */
import type { AbortSignalLike, Answer, WaitFor } from '@waitfor/core';
import { DEFAULT_MAX_ATTEMPTS } from './askPerson';
import {
  attachmentOf,
  callOrigin,
  serverNameOf,
  type AttachmentState,
  type RootsHandler,
  type SamplingHandler,
} from './attachWaitFor';
import { BridgeError, toBridgeError } from './bridgeError';
import { linkedController, MAX_TIMER_DELAY } from '@waitfor/runtime';
import { declaredModes, elicitationCapabilities, type ElicitationMode } from './capabilities';
import { clientPort, type ClientPort } from './clientPort';
import type { BridgeExtension, CallInfo, CallMethod } from './extension';
import { DEFAULT_TIMEOUT, legacyCall } from './eras/legacy/legacyCall';
import {
  DEFAULT_MAX_ROUNDS,
  originalParams,
  runInputRequiredLoop,
  type LoopOutcome,
  type LoopStart,
} from './eras/modern/inputRequiredLoop';
import { answerHostRequest, assertServable } from './eras/modern/resolveRound';
import type { QuestionOptions } from './eras/legacy/questionLinks';
import { resolveLimits, type BridgeLimits } from './limits';
import { elicitationResponses, parseSuspension, type Suspension } from './eras/modern/suspension';

/** Options of a bridge call. Unset ones come from the client's attachment. */
export interface CallOptions {
  signal?: AbortSignalLike;
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
  /** Wrap this call (`aroundCall`); `setup` and `legacyRequest` are the attachment's extensions' only. */
  extensions?: readonly BridgeExtension[];
  /** Bounds on what the server sends, over the attachment's key by key (legacy era: as `waitFor`). */
  limits?: Partial<BridgeLimits>;
}

/** Options of a durable call. */
export interface DurableCallOptions extends CallOptions {
  durable: true;
}

/** The result of a durable call: finished, or suspended until `resume`. */
export type DurableOutcome<T = Record<string, unknown>> =
  { status: 'complete'; result: T } | { status: 'suspended'; suspension: Suspension };

interface Resolved {
  port: ClientPort;
  era: 'legacy' | 'modern';
  serverName: string;
  state: AttachmentState | undefined;
  waitFor: WaitFor;
  modes: readonly ElicitationMode[];
  sampling: SamplingHandler | undefined;
  roots: RootsHandler | undefined;
  maxAttempts: number;
  limits: BridgeLimits;
  extensions: readonly BridgeExtension[];
  /** Legacy era: the question options the call brings itself (they need it alone in flight). */
  own: QuestionOptions | undefined;
}

const noWaitFor: WaitFor = async (request) => ({ id: request.id, ok: false, reason: 'cancelled' });

/** The options of one call: its own, else its client's attachment's (one resolver, both eras). */
function resolve(
  client: object,
  options: CallOptions,
  durable: boolean,
  resuming: boolean,
): Resolved {
  const port = clientPort(client);
  const state = attachmentOf(client);
  const era = port.era();
  const invalid = (message: string) => new BridgeError('invalid_options', message);
  if (era === undefined) throw invalid('The client is not connected');
  if (era === 'legacy' && (durable || resuming)) {
    throw new BridgeError(
      'durable_unsupported',
      'Durable calls need a modern-era (2026-07-28) connection',
    );
  }
  const attached = state?.options;
  const waitFor = options.waitFor ?? attached?.waitFor;
  const modes =
    options.modes !== undefined || state === undefined
      ? declaredModes(
          elicitationCapabilities({ waitFor: waitFor ?? noWaitFor, modes: options.modes }),
        )
      : state.modes;
  const maxAttempts = options.maxAttempts ?? attached?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const limits = resolveLimits(attached?.limits, options.limits);
  // Either era: the server only asks what the client declared (modern: per request).
  if (state !== undefined && modes.some((mode) => !state.modes.includes(mode)))
    throw invalid(`Undeclared modes (declared: ${state.modes})`);
  let own: QuestionOptions | undefined;
  if (era === 'legacy') {
    // Pushed questions reach only the handlers attachWaitFor registered, under the capabilities
    // it declared: what a call brings beyond that cannot be honoured, so it is refused up front.
    if (state === undefined) throw invalid('Legacy era: attachWaitFor(client) first');
    const differs = (key: 'waitFor' | 'sampling' | 'roots' | 'maxAttempts') =>
      options[key] !== undefined && options[key] !== state.options[key];
    if (differs('sampling') || differs('roots'))
      throw invalid('Legacy era: give sampling and roots to attachWaitFor');
    if (
      differs('waitFor') ||
      differs('maxAttempts') ||
      options.modes !== undefined ||
      options.limits !== undefined
    )
      own = { waitFor: waitFor as WaitFor, modes, maxAttempts, limits };
  } else if (waitFor === undefined && !durable) {
    throw invalid('No waitFor: attachWaitFor(client) first, or pass one');
  }
  return {
    port,
    era,
    serverName: serverNameOf(port, options.serverName || attached?.serverName),
    state,
    waitFor: waitFor ?? noWaitFor,
    modes,
    sampling: options.sampling ?? attached?.sampling,
    roots: options.roots ?? attached?.roots,
    maxAttempts,
    limits,
    extensions: options.extensions ?? attached?.extensions ?? [],
    own,
  };
}

function checkNumbers(options: CallOptions) {
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  if (!Number.isInteger(maxRounds) || maxRounds < 1)
    throw new BridgeError('invalid_options', 'maxRounds must be an integer ≥ 1');
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  if (typeof timeout !== 'number' || !(timeout > 0))
    throw new BridgeError('invalid_options', 'timeout must be a positive number');
  return { maxRounds, timeout };
}

function around(
  extensions: readonly BridgeExtension[],
  call: CallInfo,
  last: () => Promise<unknown>,
): Promise<unknown> {
  const chain = extensions.reduceRight<() => Promise<unknown>>(
    (next, extension) =>
      extension.aroundCall === undefined ? next : () => extension.aroundCall!(call, next),
    last,
  );
  return chain();
}

async function run(
  client: object,
  method: CallMethod,
  params: Record<string, unknown>,
  options: CallOptions & { durable?: boolean },
  start?: (resolved: Resolved) => Promise<LoopStart>,
): Promise<LoopOutcome> {
  if (typeof params !== 'object' || params === null)
    throw new BridgeError('invalid_options', 'params must be an object');
  const { maxRounds, timeout } = checkNumbers(options);
  const durable = options.durable === true;
  const resolved = resolve(client, options, durable, start !== undefined);
  const base = originalParams(params);
  const state = resolved.state;
  const call: CallInfo = {
    method,
    params: base,
    era: resolved.era,
    serverName: resolved.serverName,
    waitFor: resolved.waitFor,
    modes: resolved.modes,
    signal: options.signal,
    host: state?.host,
  };
  // The bridge's own failures become BridgeErrors here; what an extension throws reaches the caller
  // unchanged, so an extension's typed errors stay typed.
  const last = async (): Promise<unknown> => {
    // Detaching the bridge (connection.close) ends a modern loop too, so no question outlives it.
    const scope = linkedController(options.signal);
    const unfollow = state?.links.follow(scope);
    try {
      return resolved.era === 'legacy'
        ? await legacyCall(resolved.port, method, base, {
            signal: options.signal,
            timeout,
            host: state?.host,
            openCount: () => state?.openCount() ?? 0,
          })
        : await runInputRequiredLoop((await start?.(resolved)) ?? { params: base, round: 0 }, {
            port: resolved.port,
            method,
            signal: scope.signal,
            // The SDK times each leg with one timer, which fires at once past MAX_TIMER_DELAY: a
            // longer budget (Infinity: none) waits as long as one timer can.
            timeout: Math.min(timeout, MAX_TIMER_DELAY),
            maxRounds,
            durable,
            origin: { server: resolved.serverName, era: 'modern', ...callOrigin(call) },
            round: {
              // The round reads waitFor, sampling and roots from it.
              options: resolved,
              modes: resolved.modes,
              maxAttempts: resolved.maxAttempts,
              limits: resolved.limits,
              hooks: state?.hooks,
            },
          });
    } catch (error) {
      throw toBridgeError(error, options.signal);
    } finally {
      scope.dispose();
      unfollow?.();
    }
  };
  // Legacy era: however the call ends, a question it pushed that is still open can no longer be
  // used. Linked before any extension runs, so an overlap the call's own options forbid is refused
  // before anything is sent.
  const end = resolved.era === 'legacy' ? state?.links.beginCall(call, resolved.own) : undefined;
  try {
    const outcome = await around(resolved.extensions, call, last);
    if (resolved.era === 'legacy')
      return { status: 'complete', result: outcome as Record<string, unknown> };
    return outcome as LoopOutcome;
  } finally {
    end?.();
  }
}

/** A bridge call (callTool, getPrompt, readResource): durable options may return a suspension. */
export interface CallFunction<P> {
  (client: object, params: P, options: DurableCallOptions): Promise<DurableOutcome>;
  (
    client: object,
    params: P,
    options?: CallOptions & { durable?: false },
  ): Promise<Record<string, unknown>>;
}

const callFunction = <P extends object>(method: CallMethod) =>
  (async (client: object, params: P, options: CallOptions & { durable?: boolean } = {}) => {
    const outcome = await run(client, method, params as Record<string, unknown>, options);
    // Only a durable call can suspend.
    return options.durable === true ? outcome : (outcome as { result: unknown }).result;
  }) as CallFunction<P>;

/** Call a tool; the person answers any question through waitFor. Durable: may return a suspension. */
export const callTool = callFunction<{ name: string; arguments?: Record<string, unknown> }>(
  'tools/call',
);

/** Get a prompt; the person answers any question through waitFor. Durable: may return a suspension. */
export const getPrompt = callFunction<{ name: string; arguments?: Record<string, string> }>(
  'prompts/get',
);

/** Read a resource; the person answers any question through waitFor. Durable: may return a suspension. */
export const readResource = callFunction<{ uri: string }>('resources/read');

/** Options of resume; `durable` defaults to true (a further round suspends again). */
export interface ResumeOptions extends CallOptions {
  durable?: boolean;
}

/**
 * Finish a suspended call with the person's Answers (one per pending Request), from any client
 * connected to the same server (a fresh one, another process). May suspend again on a further round.
 */
export async function resume(
  client: object,
  suspension: Suspension,
  answers: readonly Answer[],
  options: ResumeOptions = {},
): Promise<DurableOutcome> {
  const limits = resolveLimits(attachmentOf(client)?.options.limits, options.limits);
  const checked = parseSuspension(suspension, limits);
  const responses = elicitationResponses(checked, answers, limits);
  const durable = options.durable ?? true;
  return run(client, checked.method, checked.params, { ...options, durable }, async (resolved) => ({
    params: checked.params,
    round: checked.round,
    retry: {
      responses: { ...responses, ...(await hostResponses(checked, resolved, options.signal)) },
      requestState: checked.requestState,
    },
  }));
}

/** Host-handled inputRequests (sampling, roots) of a suspension, answered at resume. */
async function hostResponses(
  suspension: Suspension,
  resolved: Pick<Resolved, 'sampling' | 'roots' | 'waitFor' | 'modes' | 'serverName'>,
  signal?: AbortSignalLike,
) {
  const responses: Array<[string, unknown]> = [];
  const context = {
    options: resolved,
    modes: resolved.modes,
  };
  for (const [key, entry] of Object.entries(suspension.inputRequests)) {
    if (entry.method === 'elicitation/create') continue;
    assertServable(key, entry, context);
    responses.push([
      key,
      await answerHostRequest(entry, {
        ...context,
        maxAttempts: 1,
        origin: { server: resolved.serverName, era: 'modern', inputKey: key },
        signal,
      }),
    ]);
  }
  return Object.fromEntries(responses);
}
