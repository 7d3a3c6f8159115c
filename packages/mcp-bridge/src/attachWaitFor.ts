/**
 * Attach a host's waitFor to an MCP client of either SDK generation.
 *
 * Invariants: the client declares elicitation only for the modes served (registered before connect
 * when the client is not connected yet); pushed `elicitation/create` (legacy era) and the v2 SDK's
 * own input_required driver (it calls the same registered handler) both end in the same waitFor,
 * with the SDK's abort signal passed along; an undeclared mode is refused with JSON-RPC -32602.
 */
import type { AbortSignalLike, Request, RequestOrigin, WaitFor } from '@waitfor/core';
import { createListeners, type Listeners } from '@waitfor/runtime';
import { askPerson, checkQuestion, DEFAULT_MAX_ATTEMPTS, type AskHooks } from './askPerson';
import { BridgeError } from './bridgeError';
import { declaredModes, elicitationCapabilities, type ElicitationMode } from './capabilities';
import { clientPort, type ClientPort, type V1Schemas } from './clientPort';
import {
  createQuestionLinks,
  type LinkedQuestion,
  type LiveCall,
  type QuestionLinks,
} from './eras/legacy/questionLinks';
import type { BridgeEvents, BridgeExtension, CallInfo, ExtensionHost } from './extension';
import { resolveLimits, type BridgeLimits } from './limits';
import { parseElicitationParams } from './mapping';

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

/** Options of attachWaitFor. */
export interface AttachOptions {
  waitFor: WaitFor;
  /** Elicitation modes the host serves (default form and url). */
  modes?: readonly ElicitationMode[];
  /** Who asks, as shown to the person (default: the server's serverInfo name). */
  serverName?: string;
  sampling?: SamplingHandler;
  roots?: RootsHandler;
  extensions?: readonly BridgeExtension[];
  /** Invalid form submissions before the question is answered cancel (default 3). */
  maxAttempts?: number;
  /** v1 clients: the zod schemas from '@modelcontextprotocol/sdk/types.js' (else imported lazily). */
  v1Schemas?: V1Schemas;
  /** Bounds on what the server sends (defaults: `defaultBridgeLimits`); each key on its own. */
  limits?: Partial<BridgeLimits>;
}

/** A waitFor attached to one client. */
export interface Attachment {
  readonly client: object;
  /** Resolves once every handler is registered and extensions are set up (v1 may load schemas first). */
  readonly ready: Promise<void>;
  /** The extension host of this attachment (also handy for hosts: events, open Requests). */
  readonly host: ExtensionHost;
  /** Remove the bridge's handlers and run extension cleanups. */
  detach(): void;
}

/** @internal State the call functions read from an attached client. */
export interface AttachmentState {
  port: ClientPort;
  options: AttachOptions;
  modes: ElicitationMode[];
  host: ExtensionHost;
  hooks: AskHooks;
  /** Calls the bridge has in flight on this client and the pushed questions linked to them. */
  links: QuestionLinks;
  openCount(): number;
}

const attachments = new WeakMap<object, AttachmentState>();

/** @internal The attachment of a client, if any. */
export function attachmentOf(client: object): AttachmentState | undefined {
  return attachments.get(client);
}

/** @internal The server name shown for a client ('' counts as not configured: origin.server must name someone). */
export function serverNameOf(port: ClientPort, configured: string | undefined): string {
  return configured || port.serverName() || 'unknown server';
}

/** An error the SDKs send back as a JSON-RPC error with this code. */
function rpcRefusal(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** @internal Origin fields naming what a call asks for (tool, prompt or resource). */
export const callOrigin = (call: CallInfo): Partial<RequestOrigin> => {
  if (call.method === 'tools/call') return { tool: String(call.params['name']) };
  if (call.method === 'prompts/get') return { prompt: String(call.params['name']) };
  return { resource: String(call.params['uri']) };
};

/** Attach `options.waitFor` to an MCP client (v1 or v2); call before connect so capabilities are declared. */
export function attachWaitFor(client: object, options: AttachOptions): Attachment {
  if (typeof options?.waitFor !== 'function')
    throw new BridgeError('invalid_options', 'attachWaitFor needs options.waitFor');
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new BridgeError('invalid_options', 'maxAttempts must be an integer ≥ 1');
  const limits = resolveLimits(options.limits);
  const port = clientPort(client, options.v1Schemas);
  const capabilities = elicitationCapabilities(options);
  const modes = declaredModes(capabilities);
  if (!port.isConnected()) port.registerCapabilities(capabilities as Record<string, unknown>);

  const open = new Map<string, Request>();
  // A listener's failure must not break the bridge, or the SDK's close handling: each is isolated.
  const listeners: { [E in keyof BridgeEvents]: Listeners<BridgeEvents[E]> } = {
    request: createListeners(),
    answer: createListeners(),
    close: createListeners(),
  };
  const emit = <E extends keyof BridgeEvents>(event: E, value: BridgeEvents[E]) =>
    listeners[event].emit(value);
  const hooks: AskHooks = {
    request: (request) => {
      open.set(request.id, request);
      emit('request', request);
    },
    answer: (request, answer) => {
      if (open.delete(request.id)) emit('answer', { request, answer });
    },
  };
  const host: ExtensionHost = {
    get era() {
      return port.era() ?? 'legacy';
    },
    get serverName() {
      return serverNameOf(port, options.serverName);
    },
    waitFor: options.waitFor,
    modes,
    onNotification: (method, handler) => port.onNotification(method, handler),
    openRequests: () => [...open.values()],
    on: (event, listener) => listeners[event].add(listener),
  };

  const state: AttachmentState = {
    port,
    options: { ...options, maxAttempts, limits },
    modes,
    host,
    hooks,
    links: createQuestionLinks(),
    openCount: () => open.size,
  };

  // The connection's end reaches extensions through the client's public `onclose`, chained after
  // any handler set before (the SDKs keep their own on the transport).
  const closable = client as { onclose?: (() => void) | undefined };
  const previousOnClose = closable.onclose;
  const onClose = () => {
    try {
      previousOnClose?.call(client);
    } finally {
      emit('close', undefined);
    }
  };
  closable.onclose = onClose;

  const extensions = options.extensions ?? [];
  const origin = (contextId: unknown, only: LiveCall | undefined): RequestOrigin => {
    const era = host.era;
    // A legacy push names no call: it is attributed only when exactly one bridge call is in flight.
    if (only !== undefined) return { server: only.info.serverName, era, ...callOrigin(only.info) };
    const base: RequestOrigin = { server: host.serverName, era };
    return era === 'modern' && contextId !== undefined
      ? { ...base, inputKey: String(contextId) }
      : base;
  };
  /** Serve one pushed request under a signal linked to the calls it can belong to. */
  const serve = async <T>(
    context: { signal: AbortSignalLike | undefined },
    run: (question: LinkedQuestion, only: LiveCall | undefined) => Promise<T>,
  ): Promise<T> => {
    const question = state.links.openQuestion(context.signal, host.era === 'legacy');
    try {
      return await run(question, question.calls.length === 1 ? question.calls[0] : undefined);
    } finally {
      question.close();
    }
  };

  const elicitationHandler = (
    params: Record<string, unknown>,
    context: { signal: AbortSignalLike | undefined; id: unknown },
  ) =>
    serve(context, async (question, only) => {
      // The only call in flight may bring its own waitFor, modes and maxAttempts (legacy era).
      const own = only?.own;
      try {
        const mode = parseElicitationParams(params).mode;
        if (!(own?.modes ?? modes).includes(mode))
          throw rpcRefusal(-32602, `Client does not support ${mode}-mode elicitation requests`);
        // Checked (and bounded) before anyone is asked: past a limit, the push is refused -32602.
        return await askPerson(checkQuestion(params, (own?.limits ?? limits).form), {
          waitFor: own?.waitFor ?? options.waitFor,
          origin: origin(context.id, only),
          signal: question.signal,
          maxAttempts: own?.maxAttempts ?? maxAttempts,
          rewrite:
            host.era === 'legacy' && extensions.some((extension) => extension.legacyRequest)
              ? (request: Request) =>
                  extensions.reduce(
                    (current, extension) => extension.legacyRequest?.(current, params) ?? current,
                    request,
                  )
              : undefined,
          hooks,
        });
      } catch (error) {
        if (!BridgeError.isInstance(error)) throw error;
        if (error.code === 'invalid_params') throw rpcRefusal(-32602, error.message);
        // A pushed question must be answered: a waitFor that threw counts as the person dismissing
        // it, and a question whose call ended (or whose connection is going away) is answered
        // cancel — once; when the SDK itself aborted it (server cancelled, connection closed) the
        // SDK sends nothing.
        if (error.code === 'wait_failed' || error.code === 'aborted')
          return { action: 'cancel' as const };
        throw error;
      }
    });

  const registrations: Array<Promise<() => void>> = [];
  try {
    registrations.push(port.setRequestHandler('elicitation/create', elicitationHandler));
    const { sampling, roots } = options;
    if (sampling !== undefined) {
      registrations.push(
        port.setRequestHandler('sampling/createMessage', (params, context) =>
          serve(context, (question, only) =>
            sampling(params, { signal: question.signal, origin: origin(context.id, only) }),
          ),
        ),
      );
    }
    if (roots !== undefined) {
      registrations.push(
        port.setRequestHandler('roots/list', (_params, context) =>
          serve(context, (question, only) =>
            roots({ signal: question.signal, origin: origin(context.id, only) }),
          ),
        ),
      );
    }
  } catch (error) {
    throw new BridgeError(
      'invalid_options',
      'Attach before connect, or declare elicitationCapabilities(options) in the Client',
      { cause: error },
    );
  }

  const cleanups: Array<() => void> = [];
  let detached = false;
  const setupExtensions = (removers: Array<() => void>) => {
    if (detached) {
      for (const remove of removers) remove();
      return;
    }
    cleanups.push(...removers);
    for (const extension of extensions) {
      const cleanup = extension.setup?.(host);
      if (typeof cleanup === 'function') cleanups.push(cleanup);
    }
  };
  const ready = Promise.all(registrations).then(setupExtensions);
  attachments.set(client, state);
  // Keep an unobserved failure (v1 without schemas) from becoming an unhandled rejection; callers await `ready`.
  ready.catch(() => undefined);

  return {
    client,
    ready,
    host,
    detach: () => {
      if (detached) return;
      detached = true;
      if (attachments.get(client) === state) attachments.delete(client);
      if (closable.onclose === onClose) closable.onclose = previousOnClose;
      // Nobody will serve the answers any more: close every open question (each is answered cancel).
      state.links.abortAll(new BridgeError('aborted', 'The bridge was detached from the client'));
      emit('close', undefined);
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}
