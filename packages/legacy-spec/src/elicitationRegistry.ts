/**
 * The registry of URL elicitations a legacy-era server started, keyed by connection and by the
 * server's `elicitationId`.
 *
 * Invariants:
 * - An elicitationId is only unique within one server (spec 2025-11-25), so entries are keyed per
 *   connection scope; a completion only ever matches an entry of its own connection.
 * - States move forward only: open → consented → completed, or open/consented → closed (with a
 *   reason), or open → completed (finished before consent). A completion for an unknown,
 *   completed or closed entry changes nothing (spec MUST: ignore).
 * - `consented` never outlives the calls that asked: once every one has ended, an entry one of
 *   them ended normally for stays consented at most `completionTimeoutMs` longer (the server may
 *   still send the completion); otherwise it closes at once with reason `call_ended`.
 * - Every lookup of a server-sent id is a Map (own keys only) and every operation is linear in
 *   what it is given: a batch is added, answered or waited for with one publication, so a -32042
 *   listing n elicitations costs O(n), not O(n²).
 * - The snapshot is replaced, never mutated, so a UI can compare it by identity; it is built when
 *   first read after a change, of fresh copies, so what a host holds never changes under it.
 */
import type { AbortSignalLike, Answer, Request } from '@waitfor/core';
import { LegacySpecError, type LegacySpecErrorCode } from './legacySpecError';
import { createListeners, schedule, scheduleUnref } from '@waitfor/runtime';

/** Where a URL elicitation stands. */
export type UrlElicitationState = 'open' | 'consented' | 'completed' | 'closed';

/**
 * Why a URL elicitation closed: the person `declined`; it was `cancelled` (dismissed, or withdrawn
 * before an answer); its call ended (`call_ended`: aborted or failed after consent, or no
 * completion within `completionTimeoutMs` after the call ended normally); its connection closed
 * or the bridge was detached (`connection_closed`); or the server asked again with the same
 * elicitationId (`replaced`: the newer Request took over).
 */
export type UrlElicitationCloseReason =
  'declined' | 'cancelled' | 'call_ended' | 'connection_closed' | 'replaced';

/** One URL elicitation of a legacy-era server, as a host or UI sees it. */
export interface UrlElicitation {
  /** The server's own id (also under `request.data.elicitationId`). */
  readonly elicitationId: string;
  /** The Request handed to waitFor; its `id` is the bridge's, not the server's. */
  readonly request: Request;
  /** Who asks (the connection's server name). */
  readonly server: string;
  readonly state: UrlElicitationState;
  /** Why it closed; present only in state `closed`. */
  readonly reason?: UrlElicitationCloseReason;
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

/** The connection an entry belongs to (its extension host), named when an entry is added. */
export interface RegistryScope {
  readonly serverName: string;
}

/** How long and until when to wait for a completion. */
export interface CompletionWaitOptions {
  signal?: AbortSignalLike;
  /** Milliseconds; `Infinity` waits for the signal alone. */
  timeoutMs?: number;
}

/** A bridge call that URL elicitations follow: pass it to `add`, then to `ended` once it settles. */
export type CallRecord = object[];

interface Entry {
  scope: RegistryScope;
  elicitationId: string;
  request: Request;
  server: string;
  state: UrlElicitationState;
  reason?: UrlElicitationCloseReason;
  /** Calls that may still wait on it. */
  pending: number;
  /** A call ended normally for it, or none asked: consent may wait for a late completion. */
  graced: boolean;
}

/** Settled entries kept so a repeated completion is still recognised; older ones are dropped. */
const keptSettledEntries = 500;

const isLive = ({ state }: Entry) => state === 'open' || state === 'consented';

/** A fresh copy without the bookkeeping: what a host sees, never changed afterwards. */
const publicView = ({
  scope: _scope,
  pending: _pending,
  graced: _graced,
  ...view
}: Entry): UrlElicitation => view;

/** Create an empty registry; `completionTimeoutMs` bounds a wait that names no timeout and a consent whose call ended. */
export function createElicitationRegistry(completionTimeoutMs: number) {
  // Oldest first: the snapshot's order.
  const byRequest = new Map<string, Entry>();
  // The newest entry with an elicitationId, any connection (for `find` and `wait`).
  const byElicitation = new Map<string, Entry>();
  // Per open connection: the newest entry with an elicitationId (for completions).
  const scopes = new Map<RegistryScope, Map<string, Entry>>();
  // Settled entries in the order they settled; the oldest are forgotten first.
  const settled = new Set<Entry>();
  let snapshot: readonly UrlElicitation[] | undefined = [];
  const listeners = createListeners();

  const publish = () => {
    snapshot = undefined;
    listeners.emit();
  };

  const change = (entry: Entry, state: UrlElicitationState, reason?: UrlElicitationCloseReason) => {
    entry.state = state;
    if (reason) entry.reason = reason;
    if (isLive(entry)) return;
    settled.add(entry);
    for (const old of settled) {
      if (settled.size <= keptSettledEntries) break;
      settled.delete(old);
      const { request, elicitationId } = old;
      byRequest.delete(request.id);
      if (byElicitation.get(elicitationId) === old) byElicitation.delete(elicitationId);
      const scope = scopes.get(old.scope);
      if (scope?.get(elicitationId) === old) scope.delete(elicitationId);
    }
  };

  /** Close the entries still consented; publish once when any closed. */
  const closeConsented = (entries: Entry[]) => {
    const closing = entries.filter((entry) => entry.state === 'consented');
    closing.forEach((entry) => change(entry, 'closed', 'call_ended'));
    if (closing.length) publish();
  };

  /** Consented entries no call waits on any more: close now, or after the grace for a late completion. */
  const release = (entries: Entry[]) => {
    const idle = entries.filter((entry) => entry.state === 'consented' && !entry.pending);
    closeConsented(idle.filter((entry) => !entry.graced));
    // The graced ones (the others are closed by now). Node: a grace period alone does not keep the
    // process alive. Infinity arms no timer.
    if (idle.length) scheduleUnref(completionTimeoutMs, () => closeConsented(idle));
  };

  /** Resolve when every entry has settled, or with the code that ended the wait first. */
  const watch = (
    entries: Entry[],
    { signal, timeoutMs = completionTimeoutMs }: CompletionWaitOptions,
  ) =>
    new Promise<LegacySpecErrorCode | undefined>((resolve) => {
      // Settled already: that answers, whatever the signal says.
      if (!entries.some(isLive)) return resolve(undefined);
      const end = (code?: LegacySpecErrorCode) => {
        cancel();
        off();
        signal?.removeEventListener('abort', onAbort);
        resolve(code);
      };
      const onAbort = () => end('aborted');
      // Infinity (or NaN) arms no timer at all; a longer wait than one timer holds is chained.
      const cancel = schedule(timeoutMs, () => end('completion_timeout'));
      // Every change of state is published: the wait looks again then.
      const off = listeners.add(() => entries.some(isLive) || end());
      signal?.addEventListener('abort', onAbort);
      if (signal?.aborted) onAbort();
    });

  const lookup = (id: string) => byRequest.get(id) ?? byElicitation.get(id);

  return {
    /**
     * Track URL-mode Requests (each with its `data.elicitationId`) of one connection, asked on
     * behalf of `calls`; a Request already tracked is left as it is. One publication for the batch.
     */
    add(scope: RegistryScope, requests: readonly Request[], calls: readonly CallRecord[]): void {
      let inScope = scopes.get(scope);
      if (!inScope) scopes.set(scope, (inScope = new Map()));
      for (const request of requests) {
        const elicitationId = String(request.data?.['elicitationId']);
        if (byRequest.has(request.id)) continue;
        const stale = inScope.get(elicitationId);
        // A server reusing a live id breaks its own uniqueness rule; the newer Request wins the id.
        if (stale && isLive(stale)) change(stale, 'closed', 'replaced');
        const entry = {
          scope,
          elicitationId,
          request,
          server: scope.serverName,
          state: 'open',
          pending: calls.length,
          graced: !calls.length,
        } as Entry;
        byRequest.set(request.id, entry);
        byElicitation.set(elicitationId, entry);
        inScope.set(elicitationId, entry);
        for (const call of calls) call.push(entry);
      }
      publish();
    },

    /** The call `record` settled (`ok`: normally): release the consents that only it held. */
    ended(record: CallRecord, ok: boolean): void {
      const entries = record as Entry[];
      for (const entry of entries) {
        entry.pending -= 1;
        entry.graced ||= ok;
      }
      release(entries);
    },

    /** Record the person's Answers: consent moves an open entry on, anything else closes it. */
    answered(answers: readonly Answer[]): void {
      const consented: Entry[] = [];
      let changed = false;
      for (const { id, ok, reason } of answers) {
        const entry = byRequest.get(id);
        if (entry?.state !== 'open') continue;
        changed = true;
        if (ok) consented.push(entry);
        change(
          entry,
          ok ? 'consented' : 'closed',
          ok ? undefined : reason === 'declined' ? 'declined' : 'cancelled',
        );
      }
      if (changed) publish();
      // Consent given after its calls ended (or with none) is released like at a call's end.
      release(consented);
    },

    /**
     * Apply `notifications/elicitation/complete`. Returns what the `complete` event carries, or
     * undefined when the id is unknown or already settled — then nothing changed.
     */
    complete(scope: RegistryScope, elicitationId: string): CompletionEvent | undefined {
      const entry = scopes.get(scope)?.get(elicitationId);
      if (!entry || !isLive(entry)) return undefined;
      const wasOpen = entry.state === 'open';
      change(entry, 'completed');
      publish();
      return { elicitationId, request: entry.request, server: entry.server, wasOpen };
    },

    /**
     * Close every live entry of a connection that went away. Its entries stay listed (as closed,
     * completed) but let go of the connection: no completion can match them any more.
     */
    closeScope(scope: RegistryScope): void {
      for (const entry of scopes.get(scope)?.values() ?? []) {
        if (isLive(entry)) change(entry, 'closed', 'connection_closed');
      }
      scopes.delete(scope);
      publish();
    },

    /** Find by the Request's id first, then by the newest entry with that elicitationId. */
    find(id: string): UrlElicitation | undefined {
      const entry = lookup(id);
      return entry && publicView(entry);
    },

    /** Resolve when the entry completes; reject when it closes, the time runs out or the signal aborts. */
    async wait(id: string, options: CompletionWaitOptions = {}): Promise<UrlElicitation> {
      const entry = lookup(id);
      const code = entry ? await watch([entry], options) : 'unknown_elicitation';
      if (!code && entry?.state === 'completed') return publicView(entry);
      const elicitationId = entry?.elicitationId ?? id;
      throw new LegacySpecError(
        code ?? 'elicitation_closed',
        `URL elicitation "${elicitationId}": ${code ?? `closed (${entry?.reason})`}`,
        { cause: code === 'aborted' ? options.signal?.reason : undefined, elicitationId },
      );
    },

    /** Resolve when none of these Requests' entries is open or consented, the time runs out or the signal aborts. */
    settled: (requestIds: readonly string[], options: CompletionWaitOptions): Promise<unknown> =>
      watch(
        requestIds.flatMap((id) => byRequest.get(id) ?? []),
        options,
      ),

    /** The tracked elicitations, oldest first; the same array until something changes. */
    getSnapshot: (): readonly UrlElicitation[] =>
      (snapshot ??= Array.from(byRequest.values(), publicView)),

    /** Listen for any change; returns the unsubscribe function. */
    subscribe: (listener: () => void): (() => void) => listeners.add(listener),
  };
}

/** The registry created by createElicitationRegistry. */
export type ElicitationRegistry = ReturnType<typeof createElicitationRegistry>;
