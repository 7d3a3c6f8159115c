/**
 * A call on a legacy-era connection. Questions arrive as pushed `elicitation/create` while the call
 * is open, so the call's own time budget is paused whenever a question is open on the connection:
 * the person's answer time is never cut off by the request timeout. The SDK timer is disabled
 * (set to the largest delay) and replaced by this pausable deadline, which aborts the SDK request.
 */
import type { AbortSignalLike } from '@waitfor/core';
import { BridgeError, toBridgeError } from '../../bridgeError';
import { progressOptions } from '../../callOptions';
import type { ClientPort, PortCallOptions } from '../../clientPort';
import type { BridgeEvents, ExtensionHost } from '../../extension';
import type { CallMethod } from '../../protocol';
import type { CallJob } from '../era';
import { linkedController, MAX_TIMER_DELAY, schedule } from '@waitfor/runtime';

/** Options of a legacy call. */
export interface LegacyCallOptions {
  signal?: AbortSignalLike | undefined;
  /** Time budget in ms, not counting time while a question is open (default 60 000, like the SDKs). */
  timeout: number;
  /** The attachment's host (for open-question events); absent when no waitFor is attached. */
  host?: ExtensionHost | undefined;
  openCount: () => number;
  /** The SDKs' progress options; a reset on progress restarts this budget too. */
  progress?: ReturnType<typeof progressOptions>;
}

/** Issue one legacy-era call with a deadline that pauses while a question is open. */
export async function legacyCall(
  port: ClientPort,
  method: CallMethod,
  params: Record<string, unknown>,
  options: LegacyCallOptions,
): Promise<unknown> {
  const controller = linkedController(options.signal);
  const timeoutError = (cause?: unknown) =>
    new BridgeError('timeout', `${method} timed out after ${options.timeout} ms`, { cause });
  let timedOut = false;
  let remaining = options.timeout;
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
  const sync = () => (options.openCount() > 0 ? pause() : run());
  const progress = options.progress;
  const onprogress: PortCallOptions['onprogress'] =
    progress?.onprogress === undefined
      ? undefined
      : (value) => {
          if (progress.resetTimeoutOnProgress === true && !timedOut) {
            // A paused budget stays paused (a question is open), restarted in full.
            const running = cancelTimer !== undefined;
            pause();
            remaining = options.timeout;
            if (running) run();
          }
          progress.onprogress?.(value);
        };
  const unsubscribe =
    options.host === undefined
      ? []
      : (['request', 'answer'] as const).map((event) =>
          options.host!.on(event, sync as (value: BridgeEvents[typeof event]) => void),
        );
  sync();
  try {
    return await port.call(method, params, {
      ...progress,
      onprogress,
      signal: controller.signal,
      timeout: MAX_TIMER_DELAY,
    });
  } catch (error) {
    if (timedOut) throw timeoutError(error);
    throw toBridgeError(error, options.signal);
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

/** Run a legacy call: the SDK's own call, the attached handler answering its pushes. */
export function call(job: CallJob): Promise<unknown> {
  const bridge = job.settings.bridge;
  return legacyCall(job.settings.port, job.info.method, job.info.params, {
    signal: job.options.signal,
    timeout: job.timeout,
    host: bridge?.host,
    openCount: () => bridge?.openCount() ?? 0,
    progress: progressOptions(job.options),
  });
}
