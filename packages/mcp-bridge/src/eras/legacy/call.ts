/**
 * A call on a legacy-era connection. Questions arrive as pushed `elicitation/create` while the call
 * is open, so the call's own time budget is paused whenever a question is open on the connection:
 * the person's answer time is never cut off by the request timeout. The SDK timer is disabled
 * (set to the largest delay) and replaced by this pausable deadline, which aborts the SDK request.
 */
import { BridgeError, toBridgeError } from '../../bridgeError';
import { progressOptions } from '../../callOptions';
import type { PortCallOptions } from '../../clientPort';
import { callOrigin, type BridgeEvents } from '../../extension';
import type { CallJob } from '../era';
import { linkedController, MAX_TIMER_DELAY, schedule } from '@waitfor/runtime';
import { legacyTaskDriver, startTask, taskSupport } from '../../tasks/legacy';
import { suspendPushedTask } from '../../tasks/legacyDurable';
import { runTask } from '../../tasks/modern';
import { serverIdOf } from '../../bridgeState';

/**
 * A task-augmented tools/call (2025-11-25 tasks): sent with `task: {}`, then watched by the task
 * route's one loop (its questions are pushed for the task and answered as any push), or, for a
 * handle, the created task returned as it is (`resultType: "task"`).
 */
async function taskCall(job: CallJob): Promise<unknown> {
  const { settings, timeout, options } = job;
  const started = await startTask(settings.port, job, timeout);
  if ('result' in started)
    return job.durable ? { status: 'complete', result: started.result } : started.result;
  if (job.taskMode === 'handle') return { ...started.task, resultType: 'task' };
  const driver = legacyTaskDriver(settings.port, timeout);
  const { taskId } = started.task;
  const run = { settings, maxRounds: job.maxRounds, driver, taskId, first: undefined };
  const origin = callOrigin(job.info);
  if (!job.durable) return runTask({ ...run, origin }, options.signal);
  const scope = linkedController(options.signal);
  try {
    const server = serverIdOf(settings.port, settings.serverId);
    return await suspendPushedTask({ ...run, origin }, job.info.params, server, scope.signal);
  } finally {
    scope.dispose();
  }
}

/**
 * Whether a tools/call goes out task-augmented: a tool that requires a task always; one that only
 * allows it when the host asked for a handle (bridge.tasks.start) or a durable call (only a task
 * can outlive the connection).
 */
async function asTask(job: CallJob): Promise<boolean> {
  const { method, params } = job.info;
  if (method !== 'tools/call') return false;
  const support = await taskSupport(job.settings.port, params['name'], job.options.signal);
  const wanted = job.taskMode === 'handle' || job.durable;
  return support === 'required' || (support === 'optional' && wanted);
}

/**
 * Run a legacy call: the SDK's own call, the attached handler answering its pushes, with a deadline
 * that pauses while a question is open.
 */
export async function legacyCall(job: CallJob): Promise<unknown> {
  const { method, params } = job.info;
  const { signal } = job.options;
  if (await asTask(job)) return taskCall(job);
  // A pushed question is a request bound to the open connection: only a task outlives it.
  if (job.durable)
    throw new BridgeError(
      'durable_unsupported',
      'durable needs a task-backed tools/call on a legacy-era connection',
    );
  // Time budget in ms, not counting time while a question is open (default 60 000, like the SDKs).
  const budget = job.timeout;
  // The attachment (its open questions pause the budget); absent when no waitFor is attached.
  const bridge = job.settings.bridge;
  const controller = linkedController(signal);
  const timeoutError = (cause?: unknown) =>
    new BridgeError('timeout', `${method} timed out after ${budget} ms`, { cause });
  let timedOut = false;
  let remaining = budget;
  let startedAt = 0;
  let cancelTimer: (() => void) | undefined;
  const run = () => {
    if (cancelTimer !== undefined || timedOut) return;
    startedAt = Date.now();
    cancelTimer = schedule(remaining, () => {
      timedOut = true;
      controller.abort(timeoutError());
    });
  };
  const pause = () => {
    if (cancelTimer === undefined) return;
    cancelTimer();
    cancelTimer = undefined;
    remaining = Math.max(0, remaining - (Date.now() - startedAt));
  };
  const sync = () => ((bridge?.openCount() ?? 0) > 0 ? pause() : run());
  // The SDKs' progress options; a reset on progress restarts this budget too.
  const progress = progressOptions(job.options);
  const onprogress: PortCallOptions['onprogress'] =
    progress.onprogress === undefined
      ? undefined
      : (value) => {
          if (progress.resetTimeoutOnProgress === true && !timedOut) {
            // A paused budget stays paused (a question is open), restarted in full.
            const running = cancelTimer !== undefined;
            pause();
            remaining = budget;
            if (running) run();
          }
          progress.onprogress?.(value);
        };
  const unsubscribe =
    bridge === undefined
      ? []
      : (['request', 'answer'] as const).map((event) =>
          bridge.host.on(event, sync as (value: BridgeEvents[typeof event]) => void),
        );
  sync();
  try {
    return await job.settings.port.call(method, params, {
      ...progress,
      onprogress,
      signal: controller.signal,
      timeout: MAX_TIMER_DELAY,
    });
  } catch (error) {
    if (timedOut) throw timeoutError(error);
    throw toBridgeError(error, signal);
  } finally {
    pause();
    for (const stop of unsubscribe) stop();
    controller.dispose();
  }
}

/**
 * However the call ends, a question it pushed that is still open can no longer be used. Linked
 * before any extension runs, so an overlap the call's own options forbid is refused before anything
 * is sent.
 */
export const beginCall = (job: CallJob): (() => void) | undefined =>
  job.settings.bridge?.links.beginCall(job.info, job.own);
