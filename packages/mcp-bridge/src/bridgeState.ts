/**
 * What one attached bridge holds, as the era code and the calls read it: the port, the options as
 * attached, the open questions and their events, the links of pushed questions to calls.
 */
import type { AbortSignalLike, Request, RequestOrigin, WaitFor } from '@waitfor/core';
import { createListeners, type Listeners } from '@waitfor/runtime';
import { refusalOf, type AskHooks } from './askHooks';
import { BridgeError } from './bridgeError';
import type { ElicitationMode } from './capabilities';
import type { ClientPort } from './clientPort';
import type { QuestionLinks } from './questionLinks';
import type { BridgeEvents, BridgeExtension, ExtensionHost } from './extension';
import type { BridgeLimits } from './limits';
import type { TaskReceiver } from './tasks/receiver';

/** Host handler for `sampling/createMessage` (legacy push or modern inputRequest); returns a CreateMessageResult. */
export type SamplingHandler = (
  params: Record<string, unknown>,
  context: { signal?: AbortSignalLike | undefined; origin: RequestOrigin },
) => Promise<Record<string, unknown>>;

/** Host handler for `roots/list`; returns a ListRootsResult. */
export type RootsHandler = (context: {
  signal?: AbortSignalLike | undefined;
  origin: RequestOrigin;
}) => Promise<{ roots: Array<{ uri: string; name?: string }> }>;

/** The attach options after checking: defaults filled in. */
export interface AttachSettings {
  waitFor: WaitFor;
  serverName: string | undefined;
  sampling: SamplingHandler | undefined;
  roots: RootsHandler | undefined;
  extensions: readonly BridgeExtension[];
  maxAttempts: number;
  limits: BridgeLimits;
  serverId: string | undefined;
}

/** @internal One attached bridge, as the calls and the era code read it. */
export interface BridgeState {
  readonly port: ClientPort;
  readonly settings: AttachSettings;
  /** The modes declared (and served). */
  readonly modes: ElicitationMode[];
  readonly host: ExtensionHost;
  readonly hooks: AskHooks;
  /** Calls the bridge has in flight on this client and the pushed questions linked to them. */
  readonly links: QuestionLinks;
  /** The receiver of task-augmented elicitation, when the host opted in (`taskElicitation`). */
  readonly receiver?: TaskReceiver | undefined;
  openCount(): number;
}

/** The server name shown for a client ('' counts as not configured: origin.server must name someone). */
export function serverNameOf(port: ClientPort, configured: string | undefined): string {
  return configured || port.serverName() || 'unknown server';
}

/**
 * The server identity of a client for task references: the configured one, else the server's
 * `name@version` ('' counts as not configured; 'invalid_options' before the server is known).
 */
export function serverIdOf(port: ClientPort, configured: string | undefined): string {
  const id = configured || port.serverIdentity();
  if (id === undefined)
    throw new BridgeError('invalid_options', 'No server identity: not connected');
  return id;
}

/** The open Requests of a bridge and its events (each listener isolated: one failing breaks nothing). */
export interface RequestTracker {
  readonly hooks: AskHooks;
  /** Keyed by the Request itself: both hooks receive the same object (no id string to hash). */
  readonly open: Set<Request>;
  readonly listeners: { [E in keyof BridgeEvents]: Listeners<BridgeEvents[E]> };
}

/** A fresh tracker: `hooks` report each Request handed to waitFor and its settlement. */
export function createRequestTracker(): RequestTracker {
  const open = new Set<Request>();
  const listeners: RequestTracker['listeners'] = {
    request: createListeners(),
    answer: createListeners(),
    verdict: createListeners(),
    close: createListeners(),
  };
  return {
    open,
    listeners,
    hooks: {
      request: (request) => {
        open.add(request);
        listeners.request.emit(request);
      },
      answer: (request, answer) => {
        if (!open.delete(request)) return;
        listeners.answer.emit({ request, answer });
        // A refusal needs no check: its verdict is its reason, said with it.
        if (!answer.ok) listeners.verdict.emit({ request, answer, verdict: refusalOf(answer) });
      },
      verdict: (request, answer, verdict) => listeners.verdict.emit({ request, answer, verdict }),
    },
  };
}
