/**
 * tools/call, prompts/get and resources/read through the bridge, in either era, and `resume`.
 *
 * One path for both eras: the options are resolved (the call's own, else its bridge's), the era
 * chosen for the connection checks them and runs the call (`eras/legacy/call.ts`: one SDK call
 * whose pushed questions the attached handler answers; `eras/modern/call.ts`: the bridge's own
 * input_required loop, or a durable suspension), inside the extensions' `aroundCall` hooks.
 */
import type { AbortSignalLike, Answer } from '@waitfor/core';
import { BridgeError, toBridgeError } from './bridgeError';
import type { BridgeState } from './bridgeState';
import {
  checkNumbers,
  noWaitFor,
  resolveCall,
  type CallOptions,
  type CallSettings,
  type DurableCallOptions,
  type DurableOutcome,
  type ResumeOptions,
} from './callOptions';
import type { ClientPort } from './clientPort';
import type { CallJob, CallOutcome } from './eras/era';
import { eraFor } from './eras';
import { originalParams, type LoopStart } from './eras/modern/call';
import { resolveRound } from './eras/modern/round';
import { elicitationResponses, parseSuspension, type Suspension } from './eras/modern/suspension';
import type { BridgeExtension, CallInfo } from './extension';
import { resolveLimits } from './limits';
import type { CallMethod } from './protocol';
import { entryOf } from './registry';

export type { CallOptions, DurableCallOptions, DurableOutcome, ResumeOptions } from './callOptions';

/** @internal What a call goes through: a client's port and the bridge attached to it, if any. */
export interface CallTarget {
  readonly port: ClientPort;
  readonly bridge: BridgeState | undefined;
}

/** `last` inside the extensions' aroundCall hooks, the first extension outermost. */
function around(
  extensions: readonly BridgeExtension[],
  call: CallInfo,
  last: () => Promise<unknown>,
  from = 0,
): Promise<unknown> {
  // Every call passes here: no chain is built, each hook gets its `next` when it runs.
  for (let index = from; index < extensions.length; index++) {
    const extension = extensions[index]!;
    if (extension.aroundCall !== undefined)
      return extension.aroundCall(call, () => around(extensions, call, last, index + 1));
  }
  return last();
}

/** @internal Run one bridge call on `target`; `start` resumes a suspended one. */
export async function runCall(
  targetOf: () => CallTarget,
  method: CallMethod,
  params: Record<string, unknown>,
  options: CallOptions & { durable?: boolean },
  start?: (settings: CallSettings) => Promise<LoopStart>,
): Promise<CallOutcome> {
  if (typeof params !== 'object' || params === null)
    throw new BridgeError('invalid_options', 'params must be an object');
  const { maxRounds, timeout } = checkNumbers(options);
  const durable = options.durable === true;
  const target = targetOf();
  const negotiated = target.port.era();
  if (negotiated === undefined) throw new BridgeError('invalid_options', 'Not connected');
  const era = eraFor(negotiated);
  if (!era.durable && (durable || start !== undefined)) {
    throw new BridgeError('durable_unsupported', 'durable needs a modern-era connection');
  }
  const settings = resolveCall(target.port, target.bridge, options);
  const own = era.checkCall(settings, options, durable);
  const info: CallInfo = {
    method,
    params: originalParams(params),
    era: negotiated,
    serverName: settings.serverName,
    waitFor: settings.waitFor ?? noWaitFor,
    modes: settings.modes,
    signal: options.signal,
    host: settings.bridge?.host,
  };
  const job: CallJob = {
    settings,
    options,
    info,
    timeout,
    maxRounds,
    durable,
    own,
    start,
  };
  // The bridge's own failures become BridgeErrors here; what an extension throws reaches the caller
  // unchanged, so an extension's typed errors stay typed.
  const last = () =>
    era.call(job).catch((error: unknown) => {
      throw toBridgeError(error, options.signal);
    });
  const end = era.beginCall?.(job);
  try {
    return era.outcome(await around(settings.extensions, info, last));
  } finally {
    end?.();
  }
}

/** A bridge call on a client (callTool, getPrompt, readResource): durable options may return a suspension. */
export interface CallFunction<P> {
  (client: object, params: P, options: DurableCallOptions): Promise<DurableOutcome>;
  (
    client: object,
    params: P,
    options?: CallOptions & { durable?: false },
  ): Promise<Record<string, unknown>>;
}

/** A bridge call on the bridge's own client: durable options may return a suspension. */
export interface BridgeCall<P> {
  (params: P, options: DurableCallOptions): Promise<DurableOutcome>;
  (params: P, options?: CallOptions & { durable?: false }): Promise<Record<string, unknown>>;
}

/** Params of tools/call. */
export type ToolParams = { name: string; arguments?: Record<string, unknown> };
/** Params of prompts/get. */
export type PromptParams = { name: string; arguments?: Record<string, string> };
/** Params of resources/read. */
export type ResourceParams = { uri: string };

/** @internal The call method `method` on `target` (read when called: a bridge detaches). */
export const bridgeCall = <P extends object>(method: CallMethod, target: () => CallTarget) =>
  ((params: P, options: CallOptions & { durable?: boolean } = {}) =>
    runCall(target, method, params as Record<string, unknown>, options).then((outcome) =>
      // Only a durable call can suspend.
      options.durable === true ? outcome : (outcome as { result: unknown }).result,
    )) as BridgeCall<P>;

const callFunction = <P extends object>(method: CallMethod) =>
  ((client: object, params: P, options?: CallOptions) =>
    bridgeCall<P>(method, () => entryOf(client))(
      params,
      options as CallOptions,
    )) as CallFunction<P>;

/** Call a tool; the person answers any question through waitFor. Durable: may return a suspension. */
export const callTool = callFunction<ToolParams>('tools/call');

/** Get a prompt; the person answers any question through waitFor. Durable: may return a suspension. */
export const getPrompt = callFunction<PromptParams>('prompts/get');

/** Read a resource; the person answers any question through waitFor. Durable: may return a suspension. */
export const readResource = callFunction<ResourceParams>('resources/read');

/** @internal Finish a suspended call on `target` (see `resume`). */
export async function resumeOn(
  targetOf: () => CallTarget,
  suspension: Suspension,
  answers: readonly Answer[],
  options: ResumeOptions = {},
): Promise<DurableOutcome> {
  const limits = resolveLimits(targetOf().bridge?.settings.limits, options.limits);
  const checked = parseSuspension(suspension, limits);
  const responses = elicitationResponses(checked, answers, limits);
  const durable = options.durable ?? true;
  return runCall(
    targetOf,
    checked.method,
    checked.params,
    { ...options, durable },
    async (settings) => ({
      params: checked.params,
      round: checked.round,
      retry: {
        responses: { ...responses, ...(await hostResponses(checked, settings, options.signal)) },
        requestState: checked.requestState,
      },
    }),
  );
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
  return resumeOn(() => entryOf(client), suspension, answers, options);
}

/**
 * Host-handled inputRequests (sampling, roots) of a suspension, answered at resume as the loop
 * answers a round (all checked first, then concurrently).
 */
function hostResponses(suspension: Suspension, settings: CallSettings, signal?: AbortSignalLike) {
  const hostRequests = Object.entries(suspension.inputRequests).filter(
    ([, entry]) => entry.method !== 'elicitation/create',
  );
  return resolveRound(Object.fromEntries(hostRequests), {
    handlers: settings,
    modes: settings.modes,
    maxAttempts: 1,
    origin: { server: settings.serverName, era: 'modern' },
    signal,
  });
}
