/**
 * One legacy-era connection of legacy-spec: its completion notifications, the calls it follows
 * and the URL elicitations they asked, until the connection closes or the bridge is detached.
 */
import { accept, type Answer, type Request } from '@waitfor/core';
import type { CallInfo, ExtensionHost } from '@waitfor/mcp-bridge';
import type { Listeners } from '@waitfor/runtime';
import type { CallRecord, CompletionEvent, ElicitationRegistry } from './elicitationRegistry';
import { retryAfterUrlElicitation } from './retryAfterUrlElicitation';

/** The notification method of protocol 2025-11-25 that this package listens to. */
export const elicitationCompleteMethod = 'notifications/elicitation/complete';

/** Follow one legacy call on an attached connection (and handle its -32042 errors). */
export type Follow = (call: CallInfo, next: () => Promise<unknown>) => Promise<unknown>;

/** What every connection of one legacy-spec shares. */
export interface LegacyContext {
  registry: ElicitationRegistry;
  completions: Listeners<CompletionEvent>;
  inbox: { answer(answer: Answer): boolean } | undefined;
  /** Per attached legacy host. */
  attachments: Map<ExtensionHost, Follow>;
  maxRetries: number;
  maxElicitations: number;
}

/** The extension's setup for one connection; a modern-era one registers nothing. */
export function attachLegacy(host: ExtensionHost, legacy: LegacyContext): void {
  if (host.era === 'modern') return;
  const { registry, completions, inbox, attachments } = legacy;
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
  attachments.set(host, (call, next) => follow(host, legacy, calls, track, call, next));
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
}

/** Runs one legacy call as a call in flight of `host`, retried after -32042 when URL mode is declared. */
async function follow(
  host: ExtensionHost,
  legacy: LegacyContext,
  calls: Set<CallRecord>,
  track: (requests: Request[], by: readonly CallRecord[]) => void,
  call: CallInfo,
  next: () => Promise<unknown>,
): Promise<unknown> {
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
          () => !legacy.attachments.has(host),
          legacy.registry,
          legacy.maxRetries,
          legacy.maxElicitations,
        )
      : next());
    ok = true;
    return result;
  } finally {
    calls.delete(record);
    legacy.registry.ended(record, ok);
  }
}
