/**
 * The client side of URLElicitationRequiredError (-32042): ask, wait, retry once.
 *
 * Invariants:
 * - Every listed elicitation becomes one `authorization` Request, all asked at once through the
 *   same waitFor; the first refusal cancels the others. Each question has its own signal, and the
 *   round reaches them all through ONE abort listener, so no signal collects a listener per
 *   question (Node warns past 10). Tracking, answering and the completion wait take one batch
 *   each: the round is linear in the number of elicitations, which the host bounds.
 * - The call is retried only when every Request was accepted, and only after each completion
 *   arrived or the bounded wait passed (spec: clients must not wait indefinitely).
 * - A retry failing with -32042 for an elicitation already handled ends in `elicitation_loop`;
 *   more than `maxRetries` rounds end in `retries_exceeded`. Never a loop.
 * - The caller's signal reaches waitFor and the completion wait; an abort ends the call with the
 *   bridge's own `BridgeError` `aborted` (the same error as an abort during the wire call), and no
 *   retry is sent after it. Detaching the bridge or the connection closing does the same, so no
 *   question outlives it.
 */
import {
  boundWaitFor,
  type AbortSignalLike,
  type Answer,
  type Request,
  type WaitFor,
} from '@waitfor/core';
import { BridgeError, type CallInfo, type ExtensionHost } from '@waitfor/mcp-bridge';
import type { ElicitationRegistry } from './elicitationRegistry';
import {
  createController as createAbortController,
  type ControllerLike as AbortControllerLike,
} from '@waitfor/runtime';
import { LegacySpecError } from './legacySpecError';
import { urlElicitationRequest } from './urlElicitationRequest';
import { urlElicitationsOf } from './urlElicitationRequired';

/** What one intercepted call needs. */
export interface RetryContext {
  call: CallInfo;
  /** The host of the call's connection: its server name is the origin. */
  host: ExtensionHost;
  /** Track the Requests of the listed elicitations (with their ids) on the call's connection. */
  track(items: Array<[Request, string]>): void;
  /** Aborts when the connection closes or the bridge is detached from the call's client. */
  detached: AbortSignalLike;
  /** Its `wait` bounds the completion wait by its default timeout (`completionTimeoutMs`). */
  registry: ElicitationRegistry;
  maxRetries: number;
  /** How many elicitations one -32042 may list. */
  maxElicitations: number;
}

/** Run `next`; on -32042 ask for every listed URL elicitation, wait for completions, and retry. */
export async function retryAfterUrlElicitation(
  next: () => Promise<unknown>,
  { call, host, track, detached, registry, maxRetries, maxElicitations }: RetryContext,
): Promise<unknown> {
  // The call ends on the caller's abort and on the connection's end alike.
  const signals = [call.signal, detached];
  const handled = new Set<string>();
  for (let retries = 0; ; retries += 1) {
    let error: unknown;
    try {
      return await next();
    } catch (caught) {
      error = caught;
    }
    const elicitations = urlElicitationsOf(error, maxElicitations);
    if (!elicitations) throw error;
    const repeated = elicitations.find((item) => handled.has(item.elicitationId))?.elicitationId;
    if (repeated !== undefined) {
      throw new LegacySpecError(
        'elicitation_loop',
        `The retry failed with -32042 again for handled URL elicitation "${repeated}".`,
        { cause: error, elicitationId: repeated },
      );
    }
    if (retries >= maxRetries) {
      throw new LegacySpecError('retries_exceeded', `Still -32042 after ${retries} retries.`, {
        cause: error,
      });
    }
    const throwIfAborted = () => {
      const aborted = signals.find((signal) => signal?.aborted);
      if (aborted) {
        throw new BridgeError('aborted', 'The call was aborted while handling -32042', {
          cause: aborted.reason,
        });
      }
    };
    // Aborted while the server answered: nobody is asked.
    throwIfAborted();
    const items = elicitations.map((params): [Request, string] => {
      handled.add(params.elicitationId);
      return [urlElicitationRequest(params, host.serverName, call), params.elicitationId];
    });
    const requests = items.map(([request]) => request);
    // Tracked before anyone is asked, so a completion that races the consent is not lost.
    track(items);
    const shared = linked(signals);
    try {
      // The call's own waitFor if it brought one (the bridge resolved it), else the attachment's.
      const answers = await askAll(call.waitFor, requests, shared);
      registry.answered(answers);
      throwIfAborted();
      const refused = answers.find((answer) => !answer.ok);
      if (refused) {
        throw new LegacySpecError(
          'elicitation_refused',
          `A URL elicitation was ${refused.reason ?? 'refused'}; no retry.`,
          { cause: error, answers },
        );
      }
      // A missing completion only delays the retry; the server decides on retry whether it is done.
      await registry.settled(
        requests.map((request) => request.id),
        { signal: shared.signal },
      );
      throwIfAborted();
    } finally {
      shared.dispose();
    }
  }
}

/** A controller that aborts when any of `signals` does; `dispose` stops following them. */
function linked(signals: Array<AbortSignalLike | undefined>) {
  const controller = createAbortController();
  const stops = signals.map((signal) => {
    const follow = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', follow);
    if (signal?.aborted) follow();
    return () => signal?.removeEventListener('abort', follow);
  });
  return Object.assign(controller, { dispose: () => stops.forEach((stop) => stop()) });
}

/**
 * Ask every Request at once, each under its own signal that `shared` aborts through one listener;
 * the first refusal aborts `shared`, so the others are cancelled. Bound: a waitFor that throws, answers another id or ignores the abort still ends in an
 * Answer, so this never rejects.
 */
async function askAll(
  waitFor: WaitFor,
  requests: Request[],
  shared: AbortControllerLike,
): Promise<Answer[]> {
  const ask = boundWaitFor(waitFor);
  const questions = requests.map(createAbortController);
  const fanOut = () => questions.forEach((question) => question.abort(shared.signal.reason));
  // Never removed: `shared` is the round's own and ends with it.
  shared.signal.addEventListener('abort', fanOut);
  if (shared.signal.aborted) fanOut();
  return Promise.all(
    requests.map(async (request, index) => {
      const answer = await ask(request, { signal: questions[index]!.signal });
      if (!answer.ok) shared.abort('another URL elicitation of the call was refused');
      return answer;
    }),
  );
}
