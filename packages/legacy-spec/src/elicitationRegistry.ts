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
export function createElicitationRegistry(completionTimeoutMs: number): ElicitationRegistry {
  return new ElicitationRegistry(completionTimeoutMs);
}

/**
 * The URL elicitations of every connection of one extension. The members a host may pass around
 * on their own (`find`, `wait`, `settled`, `getSnapshot`, `subscribe`) need no `this`.
 */
export class ElicitationRegistry {
  // Oldest first: the snapshot's order.
  private readonly byRequest = new Map<string, Entry>();
  // The newest entry with an elicitationId, any connection (for `find` and `wait`).
  private readonly byElicitation = new Map<string, Entry>();
  // Per open connection: the newest entry with an elicitationId (for completions).
  private readonly scopes = new Map<RegistryScope, Map<string, Entry>>();
  // Settled entries in the order they settled; the oldest are forgotten first.
  private readonly settledEntries = new Set<Entry>();
  private snapshot: readonly UrlElicitation[] | undefined = [];
  private readonly listeners = createListeners();

  constructor(private readonly completionTimeoutMs: number) {}

  private publish(): void {
    this.snapshot = undefined;
    this.listeners.emit();
  }

  private change(entry: Entry, state: UrlElicitationState, reason?: UrlElicitationCloseReason) {
    entry.state = state;
    if (reason) entry.reason = reason;
    if (isLive(entry)) return;
    this.settledEntries.add(entry);
    this.forgetOldest();
  }

  /** Drops the oldest settled entries past `keptSettledEntries`, from every index. */
  private forgetOldest(): void {
    for (const old of this.settledEntries) {
      if (this.settledEntries.size <= keptSettledEntries) break;
      this.settledEntries.delete(old);
      const { request, elicitationId } = old;
      this.byRequest.delete(request.id);
      if (this.byElicitation.get(elicitationId) === old) this.byElicitation.delete(elicitationId);
      const scope = this.scopes.get(old.scope);
      if (scope?.get(elicitationId) === old) scope.delete(elicitationId);
    }
  }

  /** Close the entries still consented; publish once when any closed. */
  private closeConsented(entries: Entry[]): void {
    const closing = entries.filter((entry) => entry.state === 'consented');
    closing.forEach((entry) => this.change(entry, 'closed', 'call_ended'));
    if (closing.length) this.publish();
  }

  /** Consented entries no call waits on any more: close now, or after the grace for a late completion. */
  private release(entries: Entry[]): void {
    const idle = entries.filter((entry) => entry.state === 'consented' && !entry.pending);
    this.closeConsented(idle.filter((entry) => !entry.graced));
    // The graced ones (the others are closed by now). Node: a grace period alone does not keep the
    // process alive. Infinity arms no timer.
    if (idle.length) scheduleUnref(this.completionTimeoutMs, () => this.closeConsented(idle));
  }

  /** Resolve when every entry has settled, or with the code that ended the wait first. */
  private watch(
    entries: Entry[],
    { signal, timeoutMs = this.completionTimeoutMs }: CompletionWaitOptions,
  ): Promise<LegacySpecErrorCode | undefined> {
    return new Promise((resolve) => {
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
      const off = this.listeners.add(() => entries.some(isLive) || end());
      signal?.addEventListener('abort', onAbort);
      if (signal?.aborted) onAbort();
    });
  }

  private lookup(id: string): Entry | undefined {
    return this.byRequest.get(id) ?? this.byElicitation.get(id);
  }

  /**
   * Track URL-mode Requests (each with its `data.elicitationId`) of one connection, asked on
   * behalf of `calls`; a Request already tracked is left as it is. One publication for the batch.
   */
  add(scope: RegistryScope, requests: readonly Request[], calls: readonly CallRecord[]): void {
    let inScope = this.scopes.get(scope);
    if (!inScope) {
      inScope = new Map();
      this.scopes.set(scope, inScope);
    }
    for (const request of requests) {
      const elicitationId = String(request.data?.['elicitationId']);
      if (this.byRequest.has(request.id)) continue;
      const stale = inScope.get(elicitationId);
      // A server reusing a live id breaks its own uniqueness rule; the newer Request wins the id.
      if (stale && isLive(stale)) this.change(stale, 'closed', 'replaced');
      const entry: Entry = {
        scope,
        elicitationId,
        request,
        server: scope.serverName,
        state: 'open',
        pending: calls.length,
        graced: !calls.length,
      };
      this.byRequest.set(request.id, entry);
      this.byElicitation.set(elicitationId, entry);
      inScope.set(elicitationId, entry);
      for (const call of calls) call.push(entry);
    }
    this.publish();
  }

  /** The call `record` settled (`ok`: normally): release the consents that only it held. */
  ended(record: CallRecord, ok: boolean): void {
    const entries = record as Entry[];
    for (const entry of entries) {
      entry.pending -= 1;
      entry.graced ||= ok;
    }
    this.release(entries);
  }

  /** Record the person's Answers: consent moves an open entry on, anything else closes it. */
  answered(answers: readonly Answer[]): void {
    const consented: Entry[] = [];
    let changed = false;
    for (const { id, ok, reason } of answers) {
      const entry = this.byRequest.get(id);
      if (entry?.state !== 'open') continue;
      changed = true;
      if (ok) consented.push(entry);
      this.change(
        entry,
        ok ? 'consented' : 'closed',
        ok ? undefined : reason === 'declined' ? 'declined' : 'cancelled',
      );
    }
    if (changed) this.publish();
    // Consent given after its calls ended (or with none) is released like at a call's end.
    this.release(consented);
  }

  /**
   * Apply `notifications/elicitation/complete`. Returns what the `complete` event carries, or
   * undefined when the id is unknown or already settled — then nothing changed.
   */
  complete(scope: RegistryScope, elicitationId: string): CompletionEvent | undefined {
    const entry = this.scopes.get(scope)?.get(elicitationId);
    if (!entry || !isLive(entry)) return undefined;
    const wasOpen = entry.state === 'open';
    this.change(entry, 'completed');
    this.publish();
    return { elicitationId, request: entry.request, server: entry.server, wasOpen };
  }

  /**
   * Close every live entry of a connection that went away. Its entries stay listed (as closed,
   * completed) but let go of the connection: no completion can match them any more.
   */
  closeScope(scope: RegistryScope): void {
    for (const entry of this.scopes.get(scope)?.values() ?? []) {
      if (isLive(entry)) this.change(entry, 'closed', 'connection_closed');
    }
    this.scopes.delete(scope);
    this.publish();
  }

  /** Find by the Request's id first, then by the newest entry with that elicitationId. */
  readonly find = (id: string): UrlElicitation | undefined => {
    const entry = this.lookup(id);
    return entry && publicView(entry);
  };

  /** Resolve when the entry completes; reject when it closes, the time runs out or the signal aborts. */
  readonly wait = async (
    id: string,
    options: CompletionWaitOptions = {},
  ): Promise<UrlElicitation> => {
    const entry = this.lookup(id);
    const code = entry ? await this.watch([entry], options) : 'unknown_elicitation';
    if (!code && entry?.state === 'completed') return publicView(entry);
    const elicitationId = entry?.elicitationId ?? id;
    throw new LegacySpecError(
      code ?? 'elicitation_closed',
      `URL elicitation "${elicitationId}": ${code ?? `closed (${entry?.reason})`}`,
      { cause: code === 'aborted' ? options.signal?.reason : undefined, elicitationId },
    );
  };

  /** Resolve when none of these Requests' entries is open or consented, the time runs out or the signal aborts. */
  readonly settled = (
    requestIds: readonly string[],
    options: CompletionWaitOptions,
  ): Promise<unknown> =>
    this.watch(
      requestIds.flatMap((id) => this.byRequest.get(id) ?? []),
      options,
    );

  /** The tracked elicitations, oldest first; the same array until something changes. */
  readonly getSnapshot = (): readonly UrlElicitation[] =>
    (this.snapshot ??= Array.from(this.byRequest.values(), publicView));

  /**
   * Listen for any change; returns the unsubscribe function. A listener that throws stops neither
   * the others nor the change (it is reported to the platform's reportError, or the console).
   */
  readonly subscribe = (listener: () => void): (() => void) => this.listeners.add(listener);
}
