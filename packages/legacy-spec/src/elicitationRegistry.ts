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
 * - The snapshot is replaced, never mutated, so a UI can compare it by identity.
 */
import type { AbortSignalLike, Answer, Request } from '@waitfor/core';
import { LegacySpecError } from './legacySpecError';
import { after } from './timers';

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
  readonly scope: RegistryScope;
}

interface Waiter {
  resolve(entry: UrlElicitation): void;
  reject(error: LegacySpecError): void;
}

/** Settled entries kept so a repeated completion is still recognised; older ones are dropped. */
const keptSettledEntries = 500;

const publicView = (entry: Entry): UrlElicitation => ({
  elicitationId: entry.elicitationId,
  request: entry.request,
  server: entry.server,
  state: entry.state,
});

/** Create an empty registry. */
export function createElicitationRegistry(defaultTimeoutMs: number) {
  let entries: Entry[] = [];
  let snapshot: readonly UrlElicitation[] = [];
  const listeners = new Set<() => void>();
  const waiters = new Map<Entry['request']['id'], Set<Waiter>>();

  const publish = () => {
    snapshot = entries.map(publicView);
    for (const listener of [...listeners]) listener();
  };

  const replace = (entry: Entry, state: UrlElicitationState): Entry => {
    const next: Entry = { ...entry, state };
    entries = entries.map((candidate) => (candidate === entry ? next : candidate));
    const settled = entries.filter(
      (candidate) => candidate.state === 'completed' || candidate.state === 'closed',
    );
    if (settled.length > keptSettledEntries) {
      const dropped = new Set(settled.slice(0, settled.length - keptSettledEntries));
      entries = entries.filter((candidate) => !dropped.has(candidate));
    }
    return next;
  };

  const settleWaiters = (entry: Entry) => {
    const pending = waiters.get(entry.request.id);
    if (!pending) return;
    waiters.delete(entry.request.id);
    for (const waiter of pending) {
      if (entry.state === 'completed') waiter.resolve(publicView(entry));
      else waiter.reject(closedError(entry));
    }
  };

  const byRequestId = (requestId: string) =>
    entries.find((entry) => entry.request.id === requestId);

  return {
    /** Track a URL-mode Request; a Request already tracked is left as it is. */
    add(scope: RegistryScope, request: Request, elicitationId: string): void {
      if (byRequestId(request.id)) return;
      const stale = entries.find(
        (entry) => entry.scope === scope && entry.elicitationId === elicitationId,
      );
      if (stale && (stale.state === 'open' || stale.state === 'consented')) {
        // A server reusing a live id breaks its own uniqueness rule; the newer Request wins the id.
        settleWaiters(replace(stale, 'closed'));
      }
      entries = [
        ...entries,
        { scope, request, elicitationId, server: scope.server, state: 'open' },
      ];
      publish();
    },

    /** Record the person's Answer: consent moves an open entry on, anything else closes it. */
    answered(answer: Answer): void {
      const entry = byRequestId(answer.id);
      if (!entry || entry.state !== 'open') return;
      const next = replace(entry, answer.ok ? 'consented' : 'closed');
      publish();
      if (next.state === 'closed') settleWaiters(next);
    },

    /**
     * Apply `notifications/elicitation/complete`. Returns the entry and whether it was still open
     * (no Answer yet), or undefined when the id is unknown or already settled — then nothing changed.
     */
    complete(
      scope: RegistryScope,
      elicitationId: string,
    ): { entry: UrlElicitation; wasOpen: boolean } | undefined {
      const entry = [...entries]
        .reverse()
        .find(
          (candidate) => candidate.scope === scope && candidate.elicitationId === elicitationId,
        );
      if (!entry || (entry.state !== 'open' && entry.state !== 'consented')) return undefined;
      const next = replace(entry, 'completed');
      publish();
      settleWaiters(next);
      return { entry: publicView(next), wasOpen: entry.state === 'open' };
    },

    /** Close every live entry of a connection that went away and forget its settled ones. */
    closeScope(scope: RegistryScope): void {
      const live = entries.filter(
        (entry) => entry.scope === scope && (entry.state === 'open' || entry.state === 'consented'),
      );
      const closed = live.map((entry) => replace(entry, 'closed'));
      entries = entries.filter((entry) => entry.scope !== scope);
      publish();
      for (const entry of closed) settleWaiters(entry);
    },

    /** Find by the Request's id first, then by the newest entry with that elicitationId. */
    find(id: string): UrlElicitation | undefined {
      const entry =
        byRequestId(id) ??
        [...entries].reverse().find((candidate) => candidate.elicitationId === id);
      return entry && publicView(entry);
    },

    /** Resolve when the entry completes; reject when it closes, the time runs out or the signal aborts. */
    wait(id: string, options: CompletionWaitOptions = {}): Promise<UrlElicitation> {
      const entry =
        byRequestId(id) ??
        [...entries].reverse().find((candidate) => candidate.elicitationId === id);
      if (!entry) {
        return Promise.reject(
          new LegacySpecError(
            'unknown_elicitation',
            `No URL elicitation with id "${id}" is known.`,
            {
              elicitationId: id,
            },
          ),
        );
      }
      if (entry.state === 'completed') return Promise.resolve(publicView(entry));
      if (entry.state === 'closed') return Promise.reject(closedError(entry));
      const { signal } = options;
      if (signal?.aborted) return Promise.reject(abortedError(entry, signal.reason));
      const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
      return new Promise<UrlElicitation>((resolve, reject) => {
        let set = waiters.get(entry.request.id);
        if (!set) waiters.set(entry.request.id, (set = new Set()));
        const pending = set;
        const cleanups: Array<() => void> = [];
        const finish = () => {
          pending.delete(waiter);
          if (pending.size === 0 && waiters.get(entry.request.id) === pending)
            waiters.delete(entry.request.id);
          for (const cleanup of cleanups) cleanup();
        };
        const waiter: Waiter = {
          resolve: (value) => {
            finish();
            resolve(value);
          },
          reject: (error) => {
            finish();
            reject(error);
          },
        };
        pending.add(waiter);
        if (Number.isFinite(timeoutMs)) {
          cleanups.push(
            after(Math.max(0, timeoutMs), () =>
              waiter.reject(
                new LegacySpecError(
                  'completion_timeout',
                  `No completion for URL elicitation "${entry.elicitationId}" within ${timeoutMs} ms.`,
                  { elicitationId: entry.elicitationId },
                ),
              ),
            ),
          );
        }
        if (signal) {
          const onAbort = () => waiter.reject(abortedError(entry, signal.reason));
          signal.addEventListener('abort', onAbort, { once: true });
          cleanups.push(() => signal.removeEventListener('abort', onAbort));
        }
      });
    },

    /** The tracked elicitations; the same array until something changes. */
    getSnapshot(): readonly UrlElicitation[] {
      return snapshot;
    },

    /** Listen for any change; returns the unsubscribe function. */
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The registry created by createElicitationRegistry. */
export type ElicitationRegistry = ReturnType<typeof createElicitationRegistry>;

function closedError(entry: Entry): LegacySpecError {
  return new LegacySpecError(
    'elicitation_closed',
    `URL elicitation "${entry.elicitationId}" was declined, cancelled or its connection closed; no completion will come.`,
    { elicitationId: entry.elicitationId },
  );
}

function abortedError(entry: Entry, reason: unknown): LegacySpecError {
  return new LegacySpecError(
    'aborted',
    `Waiting for URL elicitation "${entry.elicitationId}" was aborted.`,
    {
      cause: reason,
      elicitationId: entry.elicitationId,
    },
  );
}
