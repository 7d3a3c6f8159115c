/**
 * legacy-spec: what protocol 2026-07-28 removed, restored for legacy-era (2025-11-25) servers, as
 * one extension of @waitfor/mcp-bridge.
 *
 * Invariants:
 * - On a modern-era connection it registers nothing and passes every call straight through.
 * - A pushed URL-mode elicitation keeps the server's `elicitationId` under `data.elicitationId`;
 *   the Request's own `id` stays the bridge's.
 * - `notifications/elicitation/complete` completes the matching entry of the SAME connection only;
 *   unknown and already-completed ids change nothing (spec MUST).
 * - The connection closing, or the bridge being detached from its client (the host's `close` event),
 *   ends that connection's -32042 handling (its questions are dropped, no retry), closes its
 *   entries and forgets the connection.
 * - Every legacy call on an attached connection is followed: a URL elicitation belongs to the calls
 *   in flight when it was asked (a push names no call) or to the -32042 call that listed it, and
 *   does not stay consented once they have all ended (see the registry).
 * - A -32042 on a client that did not declare URL-mode elicitation passes through unchanged: the
 *   person is asked nothing the host said it cannot show.
 * - Listeners never break the connection: a throwing listener is isolated (completion and snapshot
 *   listeners alike).
 */
import type { Answer } from '@waitfor/core';
import type { BridgeExtension } from '@waitfor/mcp-bridge';
import { createListeners } from '@waitfor/runtime';
import {
  createElicitationRegistry,
  type CompletionEvent,
  type CompletionWaitOptions,
  type UrlElicitation,
} from './elicitationRegistry';
import { attachLegacy, type LegacyContext } from './legacyAttachment';
import { LegacySpecError } from './legacySpecError';

export type { CompletionEvent } from './elicitationRegistry';
import { defaultMaxElicitations, withElicitationId } from './urlElicitationRequired';

export { elicitationCompleteMethod } from './legacyAttachment';

/** Options of createLegacySpec / legacySpec. */
export interface LegacySpecOptions {
  /**
   * Settles a Request that is still open when its completion arrives (the person finished in the
   * browser before consenting in the UI): typically the core inbox. Without it the open Request
   * stays open and is only marked completed in `getSnapshot()` and the `complete` event.
   */
  inbox?: { answer(answer: Answer): boolean };
  /**
   * How long a completion is waited for after consent (ms, default 60000): by a -32042 retry, by
   * waitForCompletion when it names no timeout, and by a consented elicitation whose call ended
   * normally before it closes with reason `call_ended`. `Infinity`: only the signal, the call's
   * abort or failure, or the connection's end stop the wait.
   */
  completionTimeoutMs?: number;
  /** How many times one call is retried after -32042 errors naming new elicitations (default 3). */
  maxRetries?: number;
  /** How many URL elicitations one -32042 may list (default 100); more fail `too_many_elicitations`. */
  maxElicitations?: number;
}

/** The host-facing API of legacy-spec. */
export interface LegacySpec {
  /** Pass this in `attachWaitFor(client, { waitFor, extensions: [legacy.extension] })` or `connect`. */
  readonly extension: BridgeExtension;
  /** Listen for completed URL elicitations; returns the unsubscribe function. */
  onComplete(listener: (event: CompletionEvent) => void): () => void;
  /**
   * Resolve when the URL elicitation (by server `elicitationId` or Request `id`) completes.
   * Rejects LegacySpecError `completion_timeout`, `aborted`, `elicitation_closed` or `unknown_elicitation`.
   */
  waitForCompletion(id: string, options?: CompletionWaitOptions): Promise<UrlElicitation>;
  /** One tracked URL elicitation by server `elicitationId` or Request `id`. */
  get(id: string): UrlElicitation | undefined;
  /** Every tracked URL elicitation; the same array until something changes (for useSyncExternalStore). */
  getSnapshot(): readonly UrlElicitation[];
  /** Listen for any change of the snapshot; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** The options of createLegacySpec, checked, with their defaults. */
function settingsOf(options: LegacySpecOptions) {
  const option = (
    name: 'completionTimeoutMs' | 'maxRetries' | 'maxElicitations',
    fallback: number,
    least: number,
    integer?: boolean,
  ): number => {
    const value = options[name] ?? fallback;
    // Not `<`: NaN must fail too. Infinity is a number >= 0 but not an integer.
    if (!(value >= least) || (integer && !Number.isInteger(value)) || typeof value !== 'number') {
      throw new LegacySpecError(
        'invalid_options',
        `${name} must be ${integer ? 'an integer' : 'a number'} >= ${least}`,
      );
    }
    return value;
  };
  const settings = {
    completionTimeoutMs: option('completionTimeoutMs', 60_000, 0),
    maxRetries: option('maxRetries', 3, 0, true),
    maxElicitations: option('maxElicitations', defaultMaxElicitations, 1, true),
  };
  if (options.inbox !== undefined && typeof options.inbox?.answer !== 'function') {
    throw new LegacySpecError('invalid_options', 'inbox needs an answer() method');
  }
  return settings;
}

/** Create legacy-spec: an extension for the bridge plus the host-facing completion API. */
export function createLegacySpec(options: LegacySpecOptions = {}): LegacySpec {
  const { completionTimeoutMs, maxRetries, maxElicitations } = settingsOf(options);
  const registry = createElicitationRegistry(completionTimeoutMs);
  const completions = createListeners<CompletionEvent>();
  const legacy: LegacyContext = {
    registry,
    completions,
    inbox: options.inbox,
    attachments: new Map(),
    maxRetries,
    maxElicitations,
  };

  const extension: BridgeExtension = {
    name: 'legacy-spec',
    setup: (host) => attachLegacy(host, legacy),
    inboundRequest(request, params) {
      const elicitationId = params['elicitationId'];
      // The bridge has bounded url and elicitationId already (a push past them is refused -32602).
      // A 2026-07-28 question has no completion to wait for: an elicitationId there is not one.
      return request.data?.origin?.era !== 'legacy' ||
        params['mode'] !== 'url' ||
        typeof elicitationId !== 'string'
        ? request
        : withElicitationId(request, elicitationId);
    },
    aroundCall(call, next) {
      // The bridge names the call's connection; a call on a client without an attachment has no
      // completion notifications to wait for, so it is left alone.
      const follow = call.host && legacy.attachments.get(call.host);
      return call.era === 'legacy' && follow ? follow(call, next) : next();
    },
  };

  return {
    extension,
    onComplete: completions.add,
    waitForCompletion: registry.wait,
    get: registry.find,
    getSnapshot: registry.getSnapshot,
    subscribe: registry.subscribe,
  };
}

/** The bridge extension alone, for hosts that need no completion API. */
export function legacySpec(options: LegacySpecOptions = {}): BridgeExtension {
  return createLegacySpec(options).extension;
}
