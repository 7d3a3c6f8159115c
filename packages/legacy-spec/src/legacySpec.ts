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
 * - Listeners never break the connection: a throwing listener is isolated.
 */
import { accept, type AbortSignalLike, type Answer, type Request } from '@waitfor/core';
import type { BridgeExtension, CallInfo, ExtensionHost } from '@waitfor/mcp-bridge';
import {
  createElicitationRegistry,
  type CompletionWaitOptions,
  type RegistryScope,
  type UrlElicitation,
} from './elicitationRegistry';
import { LegacySpecError } from './legacySpecError';
import { retryAfterUrlElicitation } from './retryAfterUrlElicitation';
import { urlElicitationRequest } from './urlElicitationRequest';

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
  /** How long a -32042 retry waits for completions after consent, and the default of waitForCompletion (ms, default 60000). */
  completionTimeoutMs?: number;
  /** How many times one call is retried after -32042 errors naming new elicitations (default 3). */
  maxRetries?: number;
}

/** What the `complete` event carries. */
export interface CompletionEvent {
  elicitationId: string;
  /** The Request that asked for it (its `id` is the bridge's). */
  request: Request;
  /** Who asked. */
  server: string;
  /** True when no Answer had been given yet (the completion arrived before consent). */
  wasOpen: boolean;
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

const defaultCompletionTimeoutMs = 60_000;
const defaultMaxRetries = 3;

interface Attachment {
  host: ExtensionHost;
  scope: RegistryScope;
  /** Track a URL elicitation of this connection (and start listening for completions). */
  track(request: Request, elicitationId: string): void;
}

/** Create legacy-spec: an extension for the bridge plus the host-facing completion API. */
export function createLegacySpec(options: LegacySpecOptions = {}): LegacySpec {
  const completionTimeoutMs = options.completionTimeoutMs ?? defaultCompletionTimeoutMs;
  const maxRetries = options.maxRetries ?? defaultMaxRetries;
  if (typeof completionTimeoutMs !== 'number' || !(completionTimeoutMs >= 0)) {
    throw new LegacySpecError(
      'invalid_options',
      'completionTimeoutMs must be a number ≥ 0 (Infinity allowed).',
    );
  }
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new LegacySpecError('invalid_options', 'maxRetries must be an integer ≥ 0.');
  }
  if (options.inbox !== undefined && typeof options.inbox?.answer !== 'function') {
    throw new LegacySpecError('invalid_options', 'inbox must have an answer(answer) method.');
  }
  const registry = createElicitationRegistry(completionTimeoutMs);
  const completionListeners = new Set<(event: CompletionEvent) => void>();
  const attachments = new Set<Attachment>();

  const emit = (event: CompletionEvent) => {
    for (const listener of [...completionListeners]) {
      try {
        listener(event);
      } catch {
        // A host listener's failure must not stop other listeners or the connection.
      }
    }
  };

  const attach = (host: ExtensionHost): (() => void) | undefined => {
    if (host.era === 'modern') return undefined;
    // The server name is read when used: setup may run before the client has connected.
    const scope: RegistryScope = {
      get server() {
        return host.serverName;
      },
    };
    let offNotification: (() => void) | undefined;
    const onCompletion = (params: Record<string, unknown>) => {
      const elicitationId = params['elicitationId'];
      if (typeof elicitationId !== 'string' || host.era !== 'legacy') return;
      const completed = registry.complete(scope, elicitationId);
      if (!completed) return;
      if (completed.wasOpen) options.inbox?.answer(accept(completed.entry.request));
      emit({
        elicitationId,
        request: completed.entry.request,
        server: completed.entry.server,
        wasOpen: completed.wasOpen,
      });
    };
    const attachment: Attachment = {
      host,
      scope,
      track(request, elicitationId) {
        // Subscribed on the first URL elicitation of a legacy connection, never on a modern one:
        // the era is only known once connected, and a completion always follows its elicitation.
        offNotification ??= host.onNotification(elicitationCompleteMethod, onCompletion);
        registry.add(scope, request, elicitationId);
      },
    };
    attachments.add(attachment);
    const offRequest = host.on('request', (request) => {
      const elicitationId = request.data?.['elicitationId'];
      if (
        host.era === 'legacy' &&
        request.kind === 'authorization' &&
        typeof elicitationId === 'string'
      ) {
        attachment.track(request, elicitationId);
      }
    });
    const offAnswer = host.on('answer', ({ answer }) => registry.answered(answer));
    return () => {
      offRequest();
      offAnswer();
      offNotification?.();
      attachments.delete(attachment);
      registry.closeScope(scope);
    };
  };

  // CallInfo names no connection: prefer a `host` the bridge may add, else the newest legacy
  // attachment to a server of that name (two same-named legacy connections are ambiguous).
  const attachmentOf = (call: CallInfo): Attachment | undefined => {
    const named = (call as CallInfo & { host?: ExtensionHost }).host;
    let found: Attachment | undefined;
    for (const attachment of attachments) {
      if (
        named !== undefined
          ? attachment.host === named
          : attachment.host.serverName === call.serverName
      ) {
        found = attachment;
      }
    }
    return found;
  };

  const extension: BridgeExtension = {
    name: 'legacy-spec',
    setup: attach,
    legacyRequest(request, params) {
      const elicitationId = params['elicitationId'];
      if (params['mode'] !== 'url' || typeof elicitationId !== 'string') return request;
      return { ...request, data: { ...request.data, elicitationId } };
    },
    aroundCall(call, next) {
      if (call.era !== 'legacy') return next();
      const attachment = attachmentOf(call);
      if (!attachment) return next();
      const { host } = attachment;
      return retryAfterUrlElicitation(next, {
        waitFor: host.waitFor,
        track: attachment.track,
        answered: registry.answered,
        waitForCompletion: registry.wait,
        toRequest: (params) => urlElicitationRequest(params, { server: host.serverName, call }),
        signal: (call as CallInfo & { signal?: AbortSignalLike }).signal,
        completionTimeoutMs,
        maxRetries,
      });
    },
  };

  return {
    extension,
    onComplete(listener) {
      completionListeners.add(listener);
      return () => {
        completionListeners.delete(listener);
      };
    },
    waitForCompletion: (id, waitOptions) => registry.wait(id, waitOptions),
    get: (id) => registry.find(id),
    getSnapshot: registry.getSnapshot,
    subscribe: registry.subscribe,
  };
}

/** The bridge extension alone, for hosts that need no completion API. */
export function legacySpec(options: LegacySpecOptions = {}): BridgeExtension {
  return createLegacySpec(options).extension;
}
