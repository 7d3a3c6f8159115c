/**
 * The client side of URLElicitationRequiredError (-32042): ask, wait, retry once.
 *
 * Invariants:
 * - Every listed elicitation becomes one `authorization` Request built and asked by the bridge
 *   (`host.request`, `host.ask`), all at once through the call's waitFor, so they are listed by
 *   `host.openRequests()` and fire the host's events like the bridge's own questions; the first
 *   refusal cancels the others. Tracking and the completion wait take one batch each: the round is
 *   linear in the number of elicitations, which the host bounds.
 * - The call is retried only when every Request was accepted, and only after each completion
 *   arrived or the bounded wait passed (spec: clients must not wait indefinitely).
 * - A retry failing with -32042 for an elicitation already handled ends in `elicitation_loop`;
 *   more than `maxRetries` rounds end in `retries_exceeded`. Never a loop.
 * - The caller's signal reaches the questions and the completion wait; an abort ends the call with
 *   the bridge's own `BridgeError` `aborted` (the same error as an abort during the wire call), and
 *   no retry is sent after it. Detaching the bridge or the connection closing does the same, so no
 *   question outlives it: the host's 'close' cancels the questions asked through it and closes the
 *   connection's entries (which ends the completion wait), without a listener per call.
 */
import type { Request } from '@waitfor/core';
import { BridgeError, type CallInfo, type ExtensionHost } from '@waitfor/mcp-bridge';
import type { ElicitationRegistry } from './elicitationRegistry';
import { LegacySpecError } from './legacySpecError';
import { urlElicitationsOf, withElicitationId } from './urlElicitationRequired';

/** The `cause` of the abort error when the connection's end stopped the call. */
const closeReason = 'The connection closed or the bridge was detached';

/**
 * Run `next`; on -32042 ask for every listed URL elicitation, wait for completions, and retry.
 * `host` (the call's connection) builds and asks the Requests; `track` tracks them (their
 * `data.elicitationId` set); `closed` is true once the connection closed or the bridge was
 * detached; `registry.settled` bounds the completion wait (`completionTimeoutMs`);
 * `maxElicitations` bounds how many one -32042 may list. Positional: the one caller passes them.
 */
export async function retryAfterUrlElicitation(
  next: () => Promise<unknown>,
  call: CallInfo,
  host: ExtensionHost,
  track: (requests: Request[]) => void,
  closed: () => boolean,
  registry: ElicitationRegistry,
  maxRetries: number,
  maxElicitations: number,
): Promise<unknown> {
  const { signal } = call;
  // The call ends on the caller's abort and on the connection's end alike.
  const throwIfAborted = () => {
    if (signal?.aborted || closed()) {
      throw new BridgeError('aborted', 'Aborted while handling -32042', {
        cause: signal?.aborted ? signal.reason : closeReason,
      });
    }
  };
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
      throw new LegacySpecError('elicitation_loop', `-32042 again for handled "${repeated}"`, {
        cause: error,
        elicitationId: repeated,
      });
    }
    if (retries >= maxRetries) {
      throw new LegacySpecError('retries_exceeded', `Still -32042 after ${retries} retries`, {
        cause: error,
      });
    }
    // Aborted while the server answered: nobody is asked.
    throwIfAborted();
    const requests = elicitations.map((params) => {
      handled.add(params.elicitationId);
      return withElicitationId(host.request(params, call), params.elicitationId);
    });
    // Tracked before anyone is asked, so a completion that races the consent is not lost; the
    // host's 'answer' events record each Answer in the registry.
    track(requests);
    // The call's own waitFor if it brought one (the bridge resolved it), else the attachment's.
    const answers = await host.ask(requests, { signal, waitFor: call.waitFor });
    throwIfAborted();
    const refused = answers.find((answer) => !answer.ok);
    if (refused) {
      throw new LegacySpecError(
        'elicitation_refused',
        `URL elicitation ${refused.reason ?? 'refused'}: no retry`,
        { cause: error, answers },
      );
    }
    // A missing completion only delays the retry; the server decides on retry whether it is done.
    await registry.settled(
      requests.map((request) => request.id),
      { signal },
    );
    throwIfAborted();
  }
}
