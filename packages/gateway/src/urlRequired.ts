/**
 * A 2025 server's URLElicitationRequiredError (-32042) on a relayed call, toward a host that
 * cannot take it as it is.
 *
 * Invariants:
 * - Toward a 2025 host that declared URL mode the -32042 passes through unchanged (same code,
 *   message and data): the host handles it in its own revision, and the server's
 *   `notifications/elicitation/complete` reaches it on its session (passThrough.ts).
 * - Toward a 2026-07-28 host (whose revision MUST NOT emit -32042) or a 2025 host without URL mode,
 *   each listed elicitation becomes a URL question of the call (an `input_required` question, or
 *   the page of a host that cannot ask), with the server's own `elicitationId`. Once every one is
 *   accepted and its completion arrived — or `completionMs` passed, since a completion is optional
 *   — the upstream call is retried. A decline or cancel ends the call with an error saying so.
 * - Bounded: the list is checked by legacy-spec's `urlElicitationsOf` (sizes, shape, at most
 *   `maxQuestions` entries), at most MAX_URL_ROUNDS retries, and a -32042 naming an elicitation
 *   already consented to ends the call (never a loop).
 * - Completions are watched from the moment the -32042 arrives, so one that comes before the
 *   host's consent is not lost; the call's abort ends the wait.
 */
import { randomUUID } from 'node:crypto';
import type { Request } from '@waitfor/core';
import { urlElicitationsOf, type UrlElicitationParams } from '@waitfor/legacy-spec';
import type { GatewayCall } from './call';
import type { Clock } from './holds';

/** How many times one call is retried after -32042 errors naming new elicitations. */
export const MAX_URL_ROUNDS = 3;

/** The completions of one upstream session, as the gateway sees them arrive. */
export class Completions {
  readonly #watchers = new Set<(elicitationId: string) => void>();

  /** The upstream sent `notifications/elicitation/complete` (unknown ids change nothing). */
  complete(elicitationId: unknown): void {
    if (typeof elicitationId !== 'string') return;
    for (const watcher of this.#watchers) watcher(elicitationId);
  }

  /** Watch `ids` from now: `settled` resolves once all completed, `ms` passed or `signal` aborted. */
  watch(ids: readonly string[]) {
    const waiting = new Set(ids);
    let wake: (() => void) | undefined;
    const watcher = (id: string) => {
      if (waiting.delete(id) && waiting.size === 0) wake?.();
    };
    this.#watchers.add(watcher);
    const stop = () => this.#watchers.delete(watcher);
    const settled = (clock: Clock, ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        if (waiting.size === 0 || signal.aborted) return resolve();
        const timer = clock.setTimeout(() => wake?.(), ms);
        signal.addEventListener('abort', () => wake?.(), { once: true });
        wake = () => {
          clock.clearTimeout(timer);
          resolve();
        };
      });
    return { settled, stop };
  }
}

/** What the loop needs of the gateway around one call. */
export interface UrlRequiredContext {
  call: GatewayCall;
  /** The completions of the session the call runs on. */
  completions: Completions;
  clock: Clock;
  /** How long a completion is waited for after consent before the retry anyway. */
  completionMs: number;
}

/** The Request of one listed elicitation (the server's elicitationId under `data`). */
const requestOf = (params: UrlElicitationParams): Request => ({
  id: `url-${randomUUID()}`,
  kind: 'authorization',
  prompt: params.message,
  url: params.url,
  data: { elicitationId: params.elicitationId },
});

/** The listed elicitations of a -32042, or undefined for any other error; malformed: an Error. */
function listed(error: unknown, call: GatewayCall): UrlElicitationParams[] | undefined {
  try {
    return urlElicitationsOf(error, call.maxQuestions);
  } catch (malformed) {
    const reason = malformed instanceof Error ? malformed.message : String(malformed);
    throw new Error(`the server's URLElicitationRequiredError is unusable: ${reason}`, {
      cause: malformed,
    });
  }
}

/** Run the upstream call, asking and retrying after -32042 where the host cannot take it as is. */
export async function withUrlConsent(
  run: () => Promise<unknown>,
  context: UrlRequiredContext,
): Promise<unknown> {
  const { call } = context;
  const consented = new Set<string>();
  for (let round = 0; ; round += 1) {
    let error: unknown;
    try {
      return await run();
    } catch (caught) {
      error = caught;
    }
    if (call.urlRequiredPassesThrough) throw error;
    const elicitations = listed(error, call);
    if (elicitations === undefined) throw error;
    const again = elicitations.find((params) => consented.has(params.elicitationId));
    if (again !== undefined)
      throw new Error(`the server still requires "${again.url}" after the person's consent`, {
        cause: error,
      });
    if (round >= MAX_URL_ROUNDS)
      throw new Error(`the server still requires a URL after ${round} retries`, { cause: error });
    const watch = context.completions.watch(elicitations.map((params) => params.elicitationId));
    try {
      const answers = await Promise.all(
        elicitations.map((params) => call.ask(requestOf(params), call.signal, { ...params })),
      );
      const refused = answers.findIndex((answer) => !answer.ok);
      if (refused >= 0)
        throw new Error(
          `the person ${answers[refused]?.reason ?? 'refused'} the URL the server requires (${elicitations[refused]?.url})`,
          { cause: error },
        );
      for (const params of elicitations) consented.add(params.elicitationId);
      await watch.settled(context.clock, context.completionMs, call.signal);
    } finally {
      watch.stop();
    }
    if (call.signal.aborted) throw call.signal.reason;
  }
}
