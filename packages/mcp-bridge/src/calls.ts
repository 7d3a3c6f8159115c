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
import { linkedController } from './runtime';
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
import { elicitationResponses, parseSuspension, type Suspension } from './eras/modern/suspension';

/** Options of a bridge call. Unset ones come from the client's attachment. */
export interface CallOptions {
  signal?: AbortSignalLike;
  /**
   * Time budget in ms. Modern era: per wire leg (the person's time between legs never counts).
   * Legacy era: for the whole call, paused while a question is open. Default 60 000.
   */
  timeout?: number;
  /** Cap on input_required retries (modern era, default 10). */
  maxRounds?: number;
  /** A waitFor for this call when the client has no attachment (or to override it). */
  waitFor?: WaitFor;
  modes?: readonly ElicitationMode[];
  sampling?: SamplingHandler;
  roots?: RootsHandler;
  serverName?: string;
  maxAttempts?: number;
  extensions?: readonly BridgeExtension[];
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
  extensions: readonly BridgeExtension[];
}

const noWaitFor: WaitFor = async (request) => ({ id: request.id, ok: false, reason: 'cancelled' });

function resolve(client: object, options: CallOptions, needsWaitFor: boolean): Resolved {
  const port = clientPort(client);
  const state = attachmentOf(client);
  const era = port.era();
  if (era === undefined) throw new BridgeError('invalid_options', 'The client is not connected');
  const waitFor = options.waitFor ?? state?.options.waitFor;
  if (waitFor === undefined && needsWaitFor) {
    throw new BridgeError(
      'invalid_options',
      'No waitFor: attachWaitFor(client, …) first or pass options.waitFor',
    );
  }
  const sampling = options.sampling ?? state?.options.sampling;
  const roots = options.roots ?? state?.options.roots;
  const modes =
    options.modes !== undefined || state === undefined
      ? declaredModes(
          elicitationCapabilities({ waitFor: waitFor ?? noWaitFor, modes: options.modes }),
        )
      : state.modes;
  const maxAttempts = options.maxAttempts ?? state?.options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  return {
    port,
    era,
    serverName: serverNameOf(port, options.serverName ?? state?.options.serverName),
    state,
    waitFor: waitFor ?? noWaitFor,
    modes,
    sampling,
    roots,
    maxAttempts,
    extensions: options.extensions ?? state?.options.extensions ?? [],
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
  const resolved = resolve(client, options, !durable);
  if (resolved.era === 'legacy' && (durable || start !== undefined)) {
    throw new BridgeError(
      'durable_unsupported',
      'Durable calls need a modern-era (2026-07-28) connection: a legacy question is a pushed request bound to the open connection',
    );
  }
  const base = originalParams(params);
  const state = resolved.state;
  const call: CallInfo = {
    method,
    params: base,
    era: resolved.era,
    serverName: resolved.serverName,
    signal: options.signal,
    host: state?.host,
  };
  const wire = async (): Promise<unknown> => {
    if (resolved.era === 'legacy') {
      // However the call ends, a question it pushed that is still open can no longer be used.
      const end = state?.links.beginCall(call);
      try {
        return await legacyCall(resolved.port, method, base, {
          signal: options.signal,
          timeout,
          host: state?.host,
          openCount: () => state?.openCount() ?? 0,
        });
      } finally {
        end?.();
      }
    }
    // Detaching the bridge (connection.close) ends the loop too, so no question outlives it.
    const scope = linkedController(options.signal, state?.links.detached);
    try {
      return await runModernLoop(scope.signal);
    } finally {
      scope.dispose();
    }
  };
  const runModernLoop = async (signal: AbortSignalLike): Promise<unknown> =>
    runInputRequiredLoop((await start?.(resolved)) ?? { params: base, round: 0 }, {
      port: resolved.port,
      method,
      signal,
      timeout,
      maxRounds,
      durable,
      origin: { server: resolved.serverName, era: 'modern', ...callOrigin(call) },
      round: {
        options: { waitFor: resolved.waitFor, sampling: resolved.sampling, roots: resolved.roots },
        modes: resolved.modes,
        maxAttempts: resolved.maxAttempts,
        hooks: state?.hooks,
      },
    });
  // The bridge's own failures become BridgeErrors here; what an extension throws reaches the caller
  // unchanged, so an extension's typed errors stay typed.
  const last = (): Promise<unknown> =>
    wire().catch((error: unknown) => {
      throw toBridgeError(error, options.signal?.aborted === true);
    });
  const outcome = await around(resolved.extensions, call, last);
  if (resolved.era === 'legacy')
    return { status: 'complete', result: outcome as Record<string, unknown> };
  return outcome as LoopOutcome;
}

function plain(outcome: LoopOutcome): Record<string, unknown> {
  // Only durable calls can suspend; this guards the typing.
  if (outcome.status !== 'complete')
    throw new BridgeError('invalid_options', 'Unexpected suspension of a non-durable call');
  return outcome.result;
}

/** Call a tool; the person answers any question through waitFor. Durable: may return a suspension. */
export function callTool(
  client: object,
  params: { name: string; arguments?: Record<string, unknown> },
  options: DurableCallOptions,
): Promise<DurableOutcome>;
export function callTool(
  client: object,
  params: { name: string; arguments?: Record<string, unknown> },
  options?: CallOptions & { durable?: false },
): Promise<Record<string, unknown>>;
export async function callTool(
  client: object,
  params: { name: string; arguments?: Record<string, unknown> },
  options: CallOptions & { durable?: boolean } = {},
): Promise<unknown> {
  const outcome = await run(client, 'tools/call', params, options);
  return options.durable === true ? outcome : plain(outcome);
}

/** Get a prompt; the person answers any question through waitFor. Durable: may return a suspension. */
export function getPrompt(
  client: object,
  params: { name: string; arguments?: Record<string, string> },
  options: DurableCallOptions,
): Promise<DurableOutcome>;
export function getPrompt(
  client: object,
  params: { name: string; arguments?: Record<string, string> },
  options?: CallOptions & { durable?: false },
): Promise<Record<string, unknown>>;
export async function getPrompt(
  client: object,
  params: { name: string; arguments?: Record<string, string> },
  options: CallOptions & { durable?: boolean } = {},
): Promise<unknown> {
  const outcome = await run(client, 'prompts/get', params, options);
  return options.durable === true ? outcome : plain(outcome);
}

/** Read a resource; the person answers any question through waitFor. Durable: may return a suspension. */
export function readResource(
  client: object,
  params: { uri: string },
  options: DurableCallOptions,
): Promise<DurableOutcome>;
export function readResource(
  client: object,
  params: { uri: string },
  options?: CallOptions & { durable?: false },
): Promise<Record<string, unknown>>;
export async function readResource(
  client: object,
  params: { uri: string },
  options: CallOptions & { durable?: boolean } = {},
): Promise<unknown> {
  const outcome = await run(client, 'resources/read', params, options);
  return options.durable === true ? outcome : plain(outcome);
}

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
  const checked = parseSuspension(suspension);
  const responses = elicitationResponses(checked, answers);
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
  const responses: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(suspension.inputRequests)) {
    if (entry.method === 'elicitation/create') continue;
    const context = {
      options: { waitFor: resolved.waitFor, sampling: resolved.sampling, roots: resolved.roots },
      modes: resolved.modes,
    };
    assertServable(key, entry, context);
    responses[key] = await answerHostRequest(entry, {
      ...context,
      maxAttempts: 1,
      origin: { server: resolved.serverName, era: 'modern', inputKey: key },
      signal,
    });
  }
  return responses;
}
