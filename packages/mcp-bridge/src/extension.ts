import type { AbortSignalLike, Answer, Request, WaitFor } from '@waitfor/core';
import type { ElicitationMode } from './capabilities';

/** The three methods whose calls the bridge issues (and that may ask the person). */
export type CallMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** One call the bridge issues, as extensions see it in `aroundCall`. */
export interface CallInfo {
  method: CallMethod;
  params: Record<string, unknown>;
  era: 'legacy' | 'modern';
  serverName: string;
  /** The waitFor that answers this call's questions (the call's own, else the attachment's). */
  waitFor: WaitFor;
  /** The elicitation modes served for this call (the call's own, else the attachment's). */
  modes: readonly ElicitationMode[];
  /** The caller's abort signal, for work an extension does around the call. */
  signal?: AbortSignalLike;
  /** The attachment's host of the client the call goes to (absent when the client has none). */
  host?: ExtensionHost;
}

/** An event of the attachment: a Request handed to waitFor, its settlement, or the end of the connection. */
export interface BridgeEvents {
  request: Request;
  answer: { request: Request; answer: Answer };
  /** The connection closed (the client's `onclose`), or the bridge was detached. */
  close: undefined;
}

/** What an extension gets from the bridge for one attached client. */
export interface ExtensionHost {
  /** Era of the attached connection, read when accessed (the client may connect after attach). */
  readonly era: 'legacy' | 'modern';
  /** The server's name: `options.serverName`, else serverInfo name, read when accessed. */
  readonly serverName: string;
  /** The host's waitFor, as attached. */
  readonly waitFor: WaitFor;
  /** The elicitation modes the attachment declared and serves. */
  readonly modes: readonly ElicitationMode[];
  /** SDK-neutral: subscribe to a server notification by method name (v1 and v2). */
  onNotification(method: string, handler: (params: Record<string, unknown>) => void): () => void;
  /** Open Requests the bridge has handed to waitFor and not yet settled (for correlation). */
  openRequests(): readonly Request[];
  /**
   * Lifecycle events: 'request' (handed to waitFor), 'answer' (settled), 'close' (the connection
   * closed or the bridge was detached; may fire more than once). Returns unsubscribe.
   */
  on<E extends keyof BridgeEvents>(
    event: E,
    listener: (value: BridgeEvents[E]) => void,
  ): () => void;
}

/** A plug-in of the bridge (legacy-spec is one); every hook is optional. */
export interface BridgeExtension {
  name: string;
  /** Called once per attached client, after the bridge's own handlers are registered; may return a cleanup. */
  setup?(host: ExtensionHost): void | (() => void);
  /** Rewrite the Request built from a pushed legacy elicitation/create before waitFor sees it. */
  legacyRequest?(request: Request, params: Record<string, unknown>): Request;
  /** Wrap every tools/call, prompts/get and resources/read the bridge issues. */
  aroundCall?(call: CallInfo, next: () => Promise<unknown>): Promise<unknown>;
}
