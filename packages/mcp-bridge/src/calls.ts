/**
 * tools/call, prompts/get and resources/read through a bridge, in either era, and `resume`.
 *
 * One path for both eras, and nothing here knows either: the options are resolved (the call's own,
 * else its bridge's), the era chosen for the connection checks them and runs the call
 * (`eras/legacy/call.ts`: one SDK call whose pushed questions the attached handler answers;
 * `eras/modern/call.ts`: the bridge's own input_required loop, or a durable suspension), inside
 * the extensions' `aroundCall` hooks. A resume is checked by its era (`eras/modern/resume.ts`) and
 * then runs down the same path.
 */
import type { Answer } from '@waitfor/core';
import { BridgeError, toBridgeError } from './bridgeError';
import type { BridgeState } from './bridgeState';
import {
  checkNumbers,
  noWaitFor,
  resolveCall,
  type CallOptions,
  type CallSettings,
  type DurableCallOptions,
  type ResumeOptions,
} from './callOptions';
import type { ClientPort } from './clientPort';
import { eraFor, type CallJob, type Era } from './eras';
import { callOrigin } from './extension';
import type { BridgeExtension, CallInfo } from './extension';
import { resolveLimits, type BridgeLimits } from './limits';
import { linkedController } from '@waitfor/runtime';
import { resumeTask } from './tasks/durable';
import { legacyTaskDriver } from './tasks/legacy';
import { modernTaskDriver, runTask } from './tasks/modern';
import { isTaskReference } from './tasks/suspension';
import type { CallMethod, ProtocolEra } from './protocol';
import type { CallOutcome, DurableOutcome, TaskStatus } from './types';
import type { TaskDriver } from './tasks/types';

export type { CallOptions, DurableCallOptions, ResumeOptions } from './callOptions';

/** @internal What a call goes through: its bridge's port, and the bridge while it is attached. */
export interface CallTarget {
  readonly port: ClientPort;
  readonly bridge: BridgeState | undefined;
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

/** The original params of a call, without the keys the modern loop owns. */
function originalParams(params: Record<string, unknown>): Record<string, unknown> {
  const { inputResponses: _responses, requestState: _state, ...rest } = params;
  return rest;
}

/** The era `target`'s connection negotiated; throws 'invalid_options' before it connected. */
function negotiatedEra(target: CallTarget): ProtocolEra {
  const negotiated = target.port.era();
  if (negotiated === undefined) throw new BridgeError('invalid_options', 'Not connected');
  return negotiated;
}

/** @internal One call checked and resolved into the job its era runs; throws before anything is sent. */
export function prepareCall(
  target: CallTarget,
  method: CallMethod,
  params: Record<string, unknown>,
  options: CallOptions & { durable?: boolean },
  start: CallJob['start'],
  taskMode?: CallJob['taskMode'],
): [Era, CallJob] {
  if (typeof params !== 'object' || params === null)
    throw new BridgeError('invalid_options', 'params must be an object');
  const { maxRounds, timeout } = checkNumbers(options);
  const durable = options.durable === true;
  const negotiated = negotiatedEra(target);
  const era = eraFor(negotiated);
  // A legacy-era tools/call may still be durable as a 2025-11-25 task: its era decides.
  if (!era.durable && (start !== undefined || (durable && method !== 'tools/call'))) {
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
  return [era, { settings, options, info, timeout, maxRounds, durable, own, start, taskMode }];
}

/** @internal Run one bridge call on `target` (read once, when the call starts). */
export async function runCall(
  targetOf: () => CallTarget,
  method: CallMethod,
  params: Record<string, unknown>,
  options: CallOptions & { durable?: boolean },
  start?: CallJob['start'],
  taskMode?: CallJob['taskMode'],
): Promise<CallOutcome> {
  const [era, job] = prepareCall(targetOf(), method, params, options, start, taskMode);
  // The bridge's own failures become BridgeErrors here; what an extension throws reaches the caller
  // unchanged, so an extension's typed errors stay typed.
  const last = () =>
    era.call(job).catch((error: unknown) => {
      throw toBridgeError(error, options.signal);
    });
  const end = era.beginCall?.(job);
  try {
    return era.outcome(await around(job.settings.extensions, job.info, last), job);
  } finally {
    end?.();
  }
}

/** @internal The call method `method` on `target` (read when called: a bridge detaches). */
export const bridgeCall = <P extends object>(method: CallMethod, target: () => CallTarget) =>
  ((params: P, options: CallOptions & { durable?: boolean } = {}) =>
    runCall(target, method, params as Record<string, unknown>, options).then((outcome) =>
      // Only a durable call can suspend.
      options.durable === true ? outcome : (outcome as { result: unknown }).result,
    )) as BridgeCall<P>;

/**
 * @internal Finish a suspended call on `target` with the person's Answers: its era checks both
 * (nothing is sent when they do not fit), then the call runs as any other, durable by default.
 */
export async function resumeCall(
  targetOf: () => CallTarget,
  suspension: unknown,
  answers: readonly Answer[],
  options: ResumeOptions = {},
): Promise<DurableOutcome> {
  const target = targetOf();
  const era = eraFor(negotiatedEra(target));
  const limits = resolveLimits(target.bridge?.settings.limits, options.limits);
  // A task reference is resumed in either era (each revision has its own).
  if (isTaskReference(suspension))
    return resumeTaskCall(target, suspension, answers, options, limits);
  if (era.resume === undefined)
    throw new BridgeError('durable_unsupported', 'resume needs a modern-era connection');
  const resumed = era.resume(suspension, answers, limits);
  const durable = options.durable ?? true;
  return runCall(targetOf, resumed.method, resumed.params, { ...options, durable }, resumed.start);
}

/**
 * @internal Wait for a task as a call would (a handle's result, a resumed 2025-11-25 reference): checked and linked as one (2025-11-25: the task's
 * pushed questions name no call, so this wait is the call they belong to), then the one task loop.
 */
export async function waitForTask(
  target: CallTarget,
  params: Record<string, unknown>,
  options: CallOptions,
  task: { driver: TaskDriver; taskId: string; first: TaskStatus | undefined },
): Promise<Record<string, unknown>> {
  const scope = linkedController(options.signal);
  const unfollow = target.bridge?.links.follow(scope);
  const [era, job] = prepareCall(
    target,
    'tools/call',
    params,
    { ...options, signal: scope.signal },
    undefined,
  );
  const end = era.beginCall?.(job);
  try {
    const { settings, maxRounds } = job;
    return await runTask(
      { settings, maxRounds, ...task, origin: callOrigin(job.info) },
      scope.signal,
    );
  } finally {
    end?.();
    scope.dispose();
    unfollow?.();
  }
}

/** @internal A call's settings and round cap on `target`, for task work outside a call (handles, resume). */
export function taskSettings(
  target: CallTarget,
  options: CallOptions,
): { settings: CallSettings; maxRounds: number } {
  const { maxRounds } = checkNumbers(options);
  return { settings: resolveCall(target.port, target.bridge, options), maxRounds };
}

/**
 * Resume a task reference on `target`: the Tasks extension's on a modern-era connection, a
 * 2025-11-25 task's on a legacy-era one (re-attached and waited for, its pushes asked here).
 */
function resumeTaskCall(
  target: CallTarget,
  suspension: unknown,
  answers: readonly Answer[],
  options: ResumeOptions,
  limits: BridgeLimits,
): Promise<DurableOutcome> {
  const legacy = negotiatedEra(target) === 'legacy';
  const { settings, maxRounds } = taskSettings(target, { ...options, limits });
  const scope = linkedController(options.signal);
  const unfollow = target.bridge?.links.follow(scope);
  const driver = legacy
    ? legacyTaskDriver(target.port, checkNumbers(options).timeout)
    : modernTaskDriver(target.port, limits);
  const { serverId } = settings;
  return resumeTask(
    { settings, maxRounds, driver },
    suspension,
    answers,
    {
      durable: options.durable ?? true,
      signal: scope.signal,
      limits,
      serverId,
      revision: legacy ? '2025-11-25' : undefined,
    },
    (full, params) =>
      legacy
        ? waitForTask(target, params, { ...options, signal: scope.signal }, full)
        : runTask(full, scope.signal),
  ).finally(() => {
    scope.dispose();
    unfollow?.();
  });
}
