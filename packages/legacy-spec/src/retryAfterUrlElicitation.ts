/**
 * The client side of URLElicitationRequiredError (-32042): ask, wait, retry once.
 *
 * Invariants:
 * - Every listed elicitation becomes one `authorization` Request, all asked at once through the
 *   same waitFor; the first refusal cancels the others (they share one abort signal).
 * - The call is retried only when every Request was accepted, and only after each completion
 *   arrived or the bounded wait passed (spec: clients must not wait indefinitely).
 * - A retry failing with -32042 for an elicitation already handled ends in `elicitation_loop`;
 *   more than `maxRetries` rounds end in `retries_exceeded`. Never a loop.
 * - The caller's signal reaches waitFor and the completion wait; an abort ends the call.
 */
import {
  cancel,
  type AbortSignalLike,
  type Answer,
  type Request,
  type WaitFor,
} from '@waitfor/core';
import type { ElicitationRegistry } from './elicitationRegistry';
import { LegacySpecError } from './legacySpecError';
import { urlElicitationsOf, type UrlElicitationParams } from './urlElicitationRequired';

/** What one intercepted call needs. */
export interface RetryContext {
  waitFor: WaitFor;
  /** Track the Request of a listed elicitation on the call's connection. */
  track(request: Request, elicitationId: string): void;
  /** Record an Answer given to a tracked Request. */
  answered(answer: Answer): void;
  /** Resolve when a tracked Request's elicitation completes (see the registry's `wait`). */
  waitForCompletion: ElicitationRegistry['wait'];
  /** Build the `authorization` Request of one listed elicitation (keeps `data.elicitationId`). */
  toRequest(params: UrlElicitationParams): Request;
  signal?: AbortSignalLike;
  completionTimeoutMs: number;
  maxRetries: number;
}

/** Run `next`; on -32042 ask for every listed URL elicitation, wait for completions, and retry. */
export async function retryAfterUrlElicitation(
  next: () => Promise<unknown>,
  context: RetryContext,
): Promise<unknown> {
  const handled = new Set<string>();
  let retries = 0;
  for (;;) {
    let elicitations: UrlElicitationParams[] | undefined;
    try {
      return await next();
    } catch (error) {
      elicitations = urlElicitationsOf(error);
      if (!elicitations) throw error;
      const repeated = elicitations.find((item) => handled.has(item.elicitationId));
      if (repeated) {
        throw new LegacySpecError(
          'elicitation_loop',
          `The retry failed with -32042 again for URL elicitation "${repeated.elicitationId}", which was already handled.`,
          { cause: error, elicitationId: repeated.elicitationId },
        );
      }
      if (retries >= context.maxRetries) {
        throw new LegacySpecError(
          'retries_exceeded',
          `Still -32042 after ${retries} retries with new elicitations.`,
          {
            cause: error,
          },
        );
      }
      retries += 1;
      await satisfy(elicitations, context, error);
      for (const item of elicitations) handled.add(item.elicitationId);
    }
  }
}

async function satisfy(
  elicitations: UrlElicitationParams[],
  context: RetryContext,
  error: unknown,
): Promise<void> {
  const requests = elicitations.map((params) => {
    const request = context.toRequest(params);
    // Tracked before anyone is asked, so a completion that races the consent is not lost.
    context.track(request, params.elicitationId);
    return request;
  });
  const answers = await askAll(context.waitFor, requests, context.signal);
  for (const answer of answers) context.answered(answer);
  throwIfAborted(context.signal, error);
  if (!answers.every((answer) => answer.ok)) {
    const refused = answers.find((answer) => !answer.ok);
    throw new LegacySpecError(
      'elicitation_refused',
      `URL elicitation was ${refused?.reason ?? 'refused'}; the call is not retried.`,
      { cause: error, answers },
    );
  }
  // A missing completion only delays the retry; the server decides on retry whether it is done.
  await Promise.allSettled(
    requests.map((request) =>
      context.waitForCompletion(request.id, {
        signal: context.signal,
        timeoutMs: context.completionTimeoutMs,
      }),
    ),
  );
  throwIfAborted(context.signal, error);
}

/** Ask every Request at once; the first refusal or an abort cancels the rest. Never rejects. */
function askAll(
  waitFor: WaitFor,
  requests: Request[],
  outer: AbortSignalLike | undefined,
): Promise<Answer[]> {
  const shared = createSharedSignal(outer);
  return Promise.all(
    requests.map(async (request) => {
      let answer: Answer;
      try {
        answer = await waitFor(request, { signal: shared.signal });
      } catch (error) {
        answer = cancel(request, error);
      }
      if (answer.id !== request.id)
        answer = cancel(request, new Error(`Answer id "${answer.id}" does not match.`));
      if (!answer.ok) shared.abort('another URL elicitation of the same call was refused');
      return answer;
    }),
  ).finally(shared.dispose);
}

function throwIfAborted(signal: AbortSignalLike | undefined, error: unknown): void {
  if (signal?.aborted) {
    throw new LegacySpecError(
      'aborted',
      'The call was aborted while handling URLElicitationRequiredError.',
      {
        cause: signal.reason ?? error,
      },
    );
  }
}

interface SharedSignal {
  signal: AbortSignalLike;
  abort(reason: unknown): void;
  dispose(): void;
}

interface AbortControllerLike {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

/** An AbortSignal that follows `outer` and can also be aborted on its own. */
function createSharedSignal(outer: AbortSignalLike | undefined): SharedSignal {
  const controller = new (
    globalThis as unknown as { AbortController: new () => AbortControllerLike }
  ).AbortController();
  const follow = () => controller.abort(outer?.reason);
  if (outer?.aborted) follow();
  else outer?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    abort: (reason) => {
      if (!controller.signal.aborted) controller.abort(reason);
    },
    dispose: () => outer?.removeEventListener('abort', follow),
  };
}
