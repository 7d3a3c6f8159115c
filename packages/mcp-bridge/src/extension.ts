import type { AbortSignalLike, Answer, Request, RequestOrigin, WaitFor } from '@waitfor/core';
import { linkedController, type ControllerLike } from '@waitfor/runtime';
import { askAll } from '@waitfor/core/tools';
import type { AnswerVerdict, AskHooks } from './askHooks';
import { askOnce, buildElicitationRequest, cancelled } from './askPerson';
import { BridgeError } from './bridgeError';
import type { ElicitationMode } from './capabilities';
import type { CallMethod, ProtocolEra } from './protocol';

/** One call the bridge issues, as extensions see it in `aroundCall`. */
export interface CallInfo {
  method: CallMethod;
  params: Record<string, unknown>;
  era: ProtocolEra;
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

/** The origin of a call's questions: who asks, in which era, and for what (tool, prompt or resource). */
export const callOrigin = ({ serverName: server, era, method, params }: CallInfo): RequestOrigin =>
  method === 'tools/call'
    ? { server, era, tool: String(params['name']) }
    : method === 'prompts/get'
      ? { server, era, prompt: String(params['name']) }
      : { server, era, resource: String(params['uri']) };

/** An event of the attachment: a Request handed to waitFor, its settlement, or the end of the connection. */
export interface BridgeEvents {
  request: Request;
  answer: { request: Request; answer: Answer };
  /**
   * What the bridge made of an Answer, once it knows: a refusal with the Answer itself (`declined`,
   * `cancelled`, `expired`, else `other`); an accepted one once checked — `accepted`, or `invalid`
   * when its form failed the schema (then asked again, or the question cancelled).
   */
  verdict: { request: Request; answer: Answer; verdict: AnswerVerdict };
  /** The connection closed (the client's `onclose`), or the bridge was detached. */
  close: undefined;
}

/** Options of `ExtensionHost.ask`. */
export interface HostAskOptions {
  /** Ends every question still open: each is cancelled and its waitFor signal aborts. */
  signal?: AbortSignalLike | undefined;
  /** Who answers (a call's own, `CallInfo.waitFor`); default the host's. */
  waitFor?: WaitFor | undefined;
}

/** What an extension gets from the bridge for one attached client. */
export interface ExtensionHost {
  /** Era of the attached connection, read when accessed (the client may connect after attach). */
  readonly era: ProtocolEra;
  /** The server's name: `options.serverName`, else serverInfo name, read when accessed. */
  readonly serverName: string;
  /**
   * The protocol revision the client negotiated, read when accessed (undefined before it connected,
   * and for a v1 client over stdio, which keeps none).
   */
  readonly protocolVersion: string | undefined;
  /** The host's waitFor, as attached. */
  readonly waitFor: WaitFor;
  /** The elicitation modes the attachment declared and serves. */
  readonly modes: readonly ElicitationMode[];
  /** SDK-neutral: subscribe to a server notification by method name (v1 and v2). */
  onNotification(method: string, handler: (params: Record<string, unknown>) => void): () => void;
  /**
   * The Request the bridge hands to waitFor for elicitation `params` asked on behalf of `call`: its
   * own mapping, with `data.origin` naming the server, the era and the call's tool, prompt or
   * resource. Throws BridgeError `invalid_params` for malformed params.
   */
  request(params: object, call: CallInfo): Request;
  /**
   * Ask `requests` at once as the bridge asks its own questions: each is listed by `openRequests()`
   * and fires 'request' and 'answer'. All or nothing: the first Answer that is not an accept
   * cancels the others, and so do `options.signal` and the 'close' event (the connection closed or
   * the bridge was detached). Never rejects: a waitFor that throws, answers another id or is
   * aborted ends in a cancelled Answer. One Answer per Request, in order.
   */
  ask(requests: readonly Request[], options?: HostAskOptions): Promise<Answer[]>;
  /** Open Requests the bridge has handed to waitFor and not yet settled (for correlation). */
  openRequests(): readonly Request[];
  /**
   * Lifecycle events: 'request' (handed to waitFor), 'answer' (settled), 'verdict' (what the bridge
   * made of the Answer), 'close' (the connection closed or the bridge was detached; may fire more
   * than once). Returns unsubscribe.
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
  /**
   * Rewrite each Request built from a server's elicitation before waitFor sees it — the first, and
   * each re-ask of a form whose answer failed its schema — in either era: a pushed
   * `elicitation/create` (2025), an `input_required` round's inputRequest or a task's (2026-07-28). `params` are the server's own: an inputRequest's as sent (`_meta` and unknown
   * fields included), a push's as the client's SDK parsed it (its schema keeps `_meta`);
   * `request.data.origin.era` says which era. A suspension's Requests (durable calls) are not
   * rewritten: they are checked against their inputRequests again on resume.
   */
  inboundRequest?(request: Request, params: Record<string, unknown>): Request;
  /** Wrap every tools/call, prompts/get and resources/read the bridge issues. */
  aroundCall?(call: CallInfo, next: () => Promise<unknown>): Promise<unknown>;
}

/**
 * @internal The `inboundRequest` rewrites of `extensions` for a question the server asked with
 * `params`, in order; undefined when none has one (the Request is asked as built).
 */
export function inboundRewrite(
  extensions: readonly BridgeExtension[] | undefined,
  params: Record<string, unknown>,
): ((request: Request) => Request) | undefined {
  if (extensions === undefined || !extensions.some((extension) => extension.inboundRequest))
    return undefined;
  return (request) =>
    extensions.reduce(
      (current, extension) => extension.inboundRequest?.(current, params) ?? current,
      request,
    );
}

/**
 * @internal `request` and `ask` of the host of an attachment whose waitFor is `waitFor`, whose open
 * Requests and events `hooks` keep, and whose 'close' event `onClose` subscribes to.
 */
export function hostQuestions(
  waitFor: WaitFor,
  hooks: AskHooks,
  onClose: (listener: () => void) => unknown,
): Pick<ExtensionHost, 'request' | 'ask'> {
  // The rounds in flight: 'close' aborts them all in one walk, not through a listener each.
  const rounds = new Set<ControllerLike>();
  onClose(() => {
    const reason = new BridgeError('aborted', 'The connection ended');
    for (const round of rounds) round.abort(reason);
  });
  return {
    request: (params, call) => buildElicitationRequest(params, callOrigin(call)),
    ask: async (requests, options = {}) => {
      // The round engine asks them all at once; this round also ends on 'close'.
      const round = linkedController(options.signal);
      rounds.add(round);
      const context = { waitFor: options.waitFor ?? waitFor, hooks };
      try {
        return await askAll(
          requests,
          async (request, question) => {
            const answer = await askOnce(request, { ...context, signal: question.signal }).catch(
              () => cancelled(request),
            );
            // Handed back as given (no form check here): an accepted Answer is accepted.
            if (answer.ok) hooks.verdict?.(request, answer, 'accepted');
            else question.abortRound('Another question was refused');
            return answer;
          },
          round.signal,
        );
      } finally {
        rounds.delete(round);
        round.dispose();
      }
    },
  };
}
