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
import { accept, type Answer, type Request } from '@waitfor/core';
import type { BridgeExtension, CallInfo, ExtensionHost } from '@waitfor/mcp-bridge';
import { createListeners } from '@waitfor/runtime';
import {
  createElicitationRegistry,
  type CallRecord,
  type CompletionEvent,
  type CompletionWaitOptions,
  type UrlElicitation,
} from './elicitationRegistry';
import { LegacySpecError } from './legacySpecError';
import { retryAfterUrlElicitation } from './retryAfterUrlElicitation';

export type { CompletionEvent } from './elicitationRegistry';
import { defaultMaxElicitations, withElicitationId } from './urlElicitationRequired';

/** The notification method of protocol 2025-11-25 that this package listens to. */
export const elicitationCompleteMethod = 'notifications/elicitation/complete';

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

/** Follow one legacy call on an attached connection (and handle its -32042 errors). */
type Follow = (call: CallInfo, next: () => Promise<unknown>) => Promise<unknown>;

/** Create legacy-spec: an extension for the bridge plus the host-facing completion API. */
export function createLegacySpec(options: LegacySpecOptions = {}): LegacySpec {
  const { inbox } = options;
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
  const completionTimeoutMs = option('completionTimeoutMs', 60_000, 0);
  const maxRetries = option('maxRetries', 3, 0, true);
  const maxElicitations = option('maxElicitations', defaultMaxElicitations, 1, true);
  if (inbox !== undefined && typeof inbox?.answer !== 'function') {
    throw new LegacySpecError('invalid_options', 'inbox needs an answer() method');
  }
  const registry = createElicitationRegistry(completionTimeoutMs);
  const completions = createListeners<CompletionEvent>();
  /** Per attached legacy host. */
  const attachments = new Map<ExtensionHost, Follow>();

  const setup = (host: ExtensionHost): void => {
    if (host.era === 'modern') return;
    // The host is the registry's scope; its server name is read when an entry is added (setup may
    // run before the client has connected).
    let offNotification: (() => void) | undefined;
    const onCompletion = (params: Record<string, unknown>) => {
      // A non-string id matches nothing: the registry's keys are strings.
      const event =
        host.era === 'legacy'
          ? registry.complete(host, params['elicitationId'] as string)
          : undefined;
      if (!event) return;
      if (event.wasOpen) inbox?.answer(accept(event.request));
      completions.emit(event);
    };
    /** The legacy calls in flight: the candidates of a pushed URL elicitation. */
    const calls = new Set<CallRecord>();
    const track = (requests: Request[], by: readonly CallRecord[]) => {
      // Subscribed on the first URL elicitation of a legacy connection, never on a modern one:
      // the era is only known once connected, and a completion always follows its elicitation.
      offNotification ??= host.onNotification(elicitationCompleteMethod, onCompletion);
      registry.add(host, requests, by);
    };
    attachments.set(host, async (call, next) => {
      const record: CallRecord = [];
      calls.add(record);
      let ok = false;
      try {
        // Without URL mode declared for the call, a -32042 is the caller's to handle: nobody is asked.
        const result = await (call.modes.includes('url')
          ? retryAfterUrlElicitation(
              next,
              call,
              host,
              (requests) => track(requests, [record]),
              () => !attachments.has(host),
              registry,
              maxRetries,
              maxElicitations,
            )
          : next());
        ok = true;
        return result;
      } finally {
        calls.delete(record);
        registry.ended(record, ok);
      }
    });
    const offs = [
      host.on('request', (request) => {
        // A -32042 Request is tracked by its call before it is asked: only pushes are new here.
        if (
          host.era === 'legacy' &&
          request.kind === 'authorization' &&
          typeof request.data?.['elicitationId'] === 'string' &&
          !registry.find(request.id)
        ) {
          track([request], [...calls]);
        }
      }),
      host.on('answer', ({ answer }) => registry.answered([answer])),
      // The bridge fires 'close' when the connection closes and when it is detached.
      host.on('close', () => {
        attachments.delete(host);
        for (const off of offs) off();
        offNotification?.();
        registry.closeScope(host);
      }),
    ];
  };

  const extension: BridgeExtension = {
    name: 'legacy-spec',
    setup,
    legacyRequest(request, params) {
      const elicitationId = params['elicitationId'];
      // The bridge has bounded url and elicitationId already (a push past them is refused -32602).
      return params['mode'] !== 'url' || typeof elicitationId !== 'string'
        ? request
        : withElicitationId(request, elicitationId);
    },
    aroundCall(call, next) {
      // The bridge names the call's connection; a call on a client without an attachment has no
      // completion notifications to wait for, so it is left alone.
      const follow = call.host && attachments.get(call.host);
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
