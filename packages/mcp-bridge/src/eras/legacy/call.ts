/**
 * A call on a legacy-era connection. Questions arrive as pushed `elicitation/create` while the call
 * is open, so the call's own time budget is paused whenever a question is open on the connection:
 * the person's answer time is never cut off by the request timeout. The SDK timer is disabled
 * (set to the largest delay) and replaced by this pausable deadline, which aborts the SDK request.
 */
import { BridgeError, toBridgeError } from '../../bridgeError';
import { progressOptions } from '../../callOptions';
import type { PortCallOptions } from '../../clientPort';
import type { BridgeEvents } from '../../extension';
import type { CallJob } from '../era';
import { linkedController, MAX_TIMER_DELAY, schedule } from '@waitfor/runtime';
import { awaitTask, legacyTaskDriver, requiresTask } from '../../tasks/legacy';

/**
 * A tools/call of a tool whose `execution.taskSupport` is "required" (2025-11-25 tasks): sent with
 * `task: {}`, then waited for; its questions are pushed for the task and answered as any push.
 */
async function taskCall(job: CallJob): Promise<unknown> {
  const driver = legacyTaskDriver(job.settings.port, job.timeout);
  const started = await driver.start(job);
  return 'result' in started
    ? started.result
    : awaitTask(driver, started.taskId, job.options.signal);
}

/**
 * Run a legacy call: the SDK's own call, the attached handler answering its pushes, with a deadline
 * that pauses while a question is open.
 */
export async function legacyCall(job: CallJob): Promise<unknown> {
  const { method, params } = job.info;
  const { signal } = job.options;
  if (method === 'tools/call' && (await requiresTask(job.settings.port, params['name'], signal)))
    return taskCall(job);
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
