/**
 * The registry of URL elicitations a legacy-era server started, keyed by connection and by the
 * server's `elicitationId`.
 *
 * Invariants:
 * - An elicitationId is only unique within one server (spec 2025-11-25), so entries are keyed per
 *   connection scope; a completion only ever matches an entry of its own connection.
 * - States move forward only: open → consented → completed, or open/consented → closed (declined,
 *   cancelled, or the connection went away), or open → completed (finished before consent).
 *   A completion for an unknown, completed or closed entry changes nothing (spec MUST: ignore).
 * - The snapshot is replaced, never mutated, so a UI can compare it by identity; its items are
 *   fresh copies, so what a host holds never changes under it.
 */
import type { AbortSignalLike, Answer, Request } from '@waitfor/core';
import { LegacySpecError, type LegacySpecErrorCode } from './legacySpecError';
import { createListeners } from './listeners';
import { timers } from './timers';

/** Where a URL elicitation stands. */
export type UrlElicitationState = 'open' | 'consented' | 'completed' | 'closed';

/** One URL elicitation of a legacy-era server, as a host or UI sees it. */
export interface UrlElicitation {
  /** The server's own id (also under `request.data.elicitationId`). */
  readonly elicitationId: string;
  /** The Request handed to waitFor; its `id` is the bridge's, not the server's. */
  readonly request: Request;
  /** Who asks (the connection's server name). */
  readonly server: string;
  readonly state: UrlElicitationState;
}

/** The connection an entry belongs to. One per attached client. */
export interface RegistryScope {
  readonly server: string;
}

/** How long and until when to wait for a completion. */
export interface CompletionWaitOptions {
  signal?: AbortSignalLike;
  /** Milliseconds; `Infinity` waits for the signal alone. */
  timeoutMs?: number;
}

interface Entry extends UrlElicitation {
  scope: RegistryScope;
  state: UrlElicitationState;
}

/** Settled entries kept so a repeated completion is still recognised; older ones are dropped. */
const keptSettledEntries = 500;

const isLive = (entry: Entry) => entry.state === 'open' || entry.state === 'consented';

/** A fresh copy without the scope: what a host sees, never changed afterwards. */
const publicView = ({ scope: _scope, ...view }: Entry): UrlElicitation => view;

/** Create an empty registry; `defaultTimeoutMs` bounds a `wait` that names no timeout. */
export function createElicitationRegistry(defaultTimeoutMs: number) {
  // Newest first, so `find` returns the newest entry for an elicitationId.
  let entries: Entry[] = [];
  let snapshot: readonly UrlElicitation[] = [];
  // Waiters listen here too: every change of state is published.
  const listeners = createListeners();

  const publish = () => {
    let settled = 0;
    entries = entries.filter((entry) => isLive(entry) || ++settled <= keptSettledEntries);
    snapshot = entries.map(publicView).reverse();
    listeners.emit();
  };

  const byRequestId = (id: string) => entries.find((entry) => entry.request.id === id);

  const inScope = (scope: RegistryScope, elicitationId: string) =>
    entries.find((entry) => entry.scope === scope && entry.elicitationId === elicitationId);

  /** By the Request's id first, then by the newest entry with that elicitationId. */
  const lookup = (id: string) =>
    byRequestId(id) ?? entries.find((entry) => entry.elicitationId === id);

  return {
    /** Track a URL-mode Request; a Request already tracked is left as it is. */
    add(scope: RegistryScope, request: Request, elicitationId: string): void {
      if (byRequestId(request.id)) return;
      const stale = inScope(scope, elicitationId);
      // A server reusing a live id breaks its own uniqueness rule; the newer Request wins the id.
      if (stale && isLive(stale)) stale.state = 'closed';
      entries = [
        { scope, elicitationId, request, server: scope.server, state: 'open' },
        ...entries,
      ];
      publish();
    },

    /** Record the person's Answer: consent moves an open entry on, anything else closes it. */
    answered(answer: Answer): void {
      const entry = byRequestId(answer.id);
      if (entry?.state !== 'open') return;
      entry.state = answer.ok ? 'consented' : 'closed';
      publish();
    },

    /**
     * Apply `notifications/elicitation/complete`. Returns the entry and whether it was still open
     * (no Answer yet), or undefined when the id is unknown or already settled — then nothing changed.
     */
    complete(
      scope: RegistryScope,
      elicitationId: string,
    ): { entry: UrlElicitation; wasOpen: boolean } | undefined {
      const entry = inScope(scope, elicitationId);
      if (!entry || !isLive(entry)) return undefined;
      const wasOpen = entry.state === 'open';
      entry.state = 'completed';
      publish();
      return { entry: publicView(entry), wasOpen };
    },

    /**
     * Close every live entry of a connection that went away. Its entries stay listed (as closed,
     * completed) but let go of the connection: no completion can match them any more.
     */
    closeScope(scope: RegistryScope): void {
      const gone: RegistryScope = { server: scope.server };
      for (const entry of entries) {
        if (entry.scope !== scope) continue;
        if (isLive(entry)) entry.state = 'closed';
        entry.scope = gone;
      }
      publish();
    },

    /** Find by the Request's id first, then by the newest entry with that elicitationId. */
    find(id: string): UrlElicitation | undefined {
      const entry = lookup(id);
      return entry && publicView(entry);
    },

    /** Resolve when the entry completes; reject when it closes, the time runs out or the signal aborts. */
    wait(id: string, options: CompletionWaitOptions = {}): Promise<UrlElicitation> {
      const entry = lookup(id);
      const { signal } = options;
      const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
      return new Promise<UrlElicitation>((resolve, reject) => {
        const elicitationId = entry?.elicitationId ?? id;
        const stops: Array<() => void> = [];
        const stop = () => stops.forEach((each) => each());
        const fail = (code: LegacySpecErrorCode, problem: string, cause?: unknown) => {
          stop();
          reject(
            new LegacySpecError(code, `URL elicitation "${elicitationId}": ${problem}.`, {
              cause,
              elicitationId,
            }),
          );
        };
        if (!entry) return fail('unknown_elicitation', 'unknown id');
        const check = () => {
          if (entry.state === 'completed') {
            stop();
            resolve(publicView(entry));
          } else if (entry.state === 'closed') {
            fail('elicitation_closed', 'declined, cancelled or its connection closed');
          }
        };
        const onAbort = () => fail('aborted', 'the wait was aborted', signal?.reason);
        stops.push(listeners.add(check));
        // A negative time fires at once; Infinity (or NaN) arms no timer at all.
        if (Number.isFinite(timeoutMs)) {
          const timer = timers.setTimeout(
            () => fail('completion_timeout', `no completion within ${timeoutMs} ms`),
            timeoutMs,
          );
          stops.push(() => timers.clearTimeout(timer));
        }
        // Removed again by `stop`, which every way of settling runs.
        signal?.addEventListener('abort', onAbort);
        stops.push(() => signal?.removeEventListener('abort', onAbort));
        // A settled entry answers at once; the promise ignores whatever settles it later.
        check();
        if (signal?.aborted) onAbort();
      });
    },

    /** The tracked elicitations, oldest first; the same array until something changes. */
    getSnapshot: (): readonly UrlElicitation[] => snapshot,

    /** Listen for any change; returns the unsubscribe function. */
    subscribe: (listener: () => void): (() => void) => listeners.add(listener),
  };
}

/** The registry created by createElicitationRegistry. */
export type ElicitationRegistry = ReturnType<typeof createElicitationRegistry>;
