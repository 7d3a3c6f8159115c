/**
 * The bridge a host holds: `attachWaitFor(client, options)` attaches a host's waitFor to an MCP
 * client of either SDK generation and returns one object that owns the client's port, the open
 * questions and their events, the call methods and `detach`. Calls go through the bridge's methods
 * (or a `connect` connection's, which are the same): nothing is kept per client anywhere else.
 *
 * Invariants: the client declares elicitation only for the modes served (registered before connect
 * when the client is not connected yet); pushed `elicitation/create` (legacy era) and the v2 SDK's
 * own input_required driver (it calls the same registered handler) both end in the same waitFor,
 * with the SDK's abort signal passed along; an undeclared mode is refused with JSON-RPC -32602.
 */
import type { AbortSignalLike, Answer, Request, WaitFor } from '@waitfor/core';
import { DEFAULT_MAX_ATTEMPTS } from './askPerson';
import { BridgeError, toBridgeError } from './bridgeError';
import {
  createRequestTracker,
  serverIdOf,
  serverNameOf,
  type AttachSettings,
  type BridgeState,
  type RequestTracker,
  type RootsHandler,
  type SamplingHandler,
} from './bridgeState';
import {
  bridgeCall,
  resumeCall,
  type BridgeCall,
  type CallTarget,
  type PromptParams,
  type ResourceParams,
  type ToolParams,
} from './calls';
import { countOption, type ResumeOptions } from './callOptions';
import {
  elicitationCapabilities,
  isOptedIn,
  servedModes,
  type ElicitationMode,
} from './capabilities';
import { createClientPort, type ClientPort, type V1Schemas } from './clientPort';
import { eraFor, type Era } from './eras';
import {
  hostQuestions,
  type BridgeEvents,
  type BridgeExtension,
  type ExtensionHost,
} from './extension';
import { registerHandlers } from './inbound';
import { resolveLimits, type BridgeLimits } from './limits';
import type { ListMethod, ProtocolEra } from './protocol';
import { createQuestionLinks } from './questionLinks';
import { TASKS_EXTENSION } from './protocol';
import { bridgeTasks } from './tasks/handle';
import type { BridgeTasks } from './tasks/types';
import type { DurableOutcome, Suspension, TaskSuspension } from './types';
import { createTaskReceiver, type TaskElicitationOptions } from './tasks/receiver';

export type { RootsHandler, SamplingHandler } from './bridgeState';

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
  /**
   * The server's identity, written into task references (TaskSuspension.server) and checked on
   * resume: a reference of another identity is refused ('foreign_reference'). Default: the server's
   * serverInfo `name@version` (connect: its URL, or the stdio command line).
   */
  serverId?: string;
  /**
   * Receive 2025-11-25 task-augmented elicitation: the server gets a task at once and polls it
   * while the person answers (`true`, or bounds). Needs attach before connect. Default off.
   */
  taskElicitation?: boolean | TaskElicitationOptions;
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

/** Options of a list pass-through (tools/list, prompts/list, resources/list). */
export interface ListOptions {
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  signal?: AbortSignalLike;
  timeout?: number;
}

/** The bridge a host holds for one client: its calls, its open questions, its events. */
export interface Bridge extends Attachment {
  /** The negotiated era, read when accessed (`legacy` until the client connects). */
  readonly era: ProtocolEra;
  /** Who asks: `options.serverName`, else the server's serverInfo name. */
  readonly serverName: string;
  /** tools/call; the person answers any question through waitFor. Durable: may return a suspension. */
  readonly callTool: BridgeCall<ToolParams>;
  /** prompts/get, as `callTool`. */
  readonly getPrompt: BridgeCall<PromptParams>;
  /** resources/read, as `callTool`. */
  readonly readResource: BridgeCall<ResourceParams>;
  /**
   * The server identity task references are written with and checked against (`serverId`);
   * without one configured, read once connected ('invalid_options' before).
   */
  readonly serverId: string;
  /**
   * Finish a suspended durable call (suspended on this client or any other to the same server).
   * A TaskSuspension: the answers given (any subset of its Requests; none: only watch) go to the
   * server in one tasks/update, then this waits until the task's open keys change or it ends. A
   * 2025-11-25 one (no Requests, so no answers) is re-attached: its questions, pushed to this
   * client, are asked through this bridge's waitFor, and this waits for the task's result.
   */
  resume(
    suspension: Suspension | TaskSuspension,
    answers: readonly Answer[],
    options?: ResumeOptions,
  ): Promise<DurableOutcome>;
  /** Task-backed calls as handles: start, get, cancel, list. */
  readonly tasks: BridgeTasks;
  /** tools/list, one page (`cursor`: the previous page's `nextCursor`); failures become BridgeErrors. */
  listTools(options?: ListOptions): Promise<Record<string, unknown>>;
  /** prompts/list, as `listTools`. */
  listPrompts(options?: ListOptions): Promise<Record<string, unknown>>;
  /** resources/list, as `listTools`. */
  listResources(options?: ListOptions): Promise<Record<string, unknown>>;
  /** Requests handed to waitFor and not yet settled. */
  openRequests(): readonly Request[];
  /** Subscribe to 'request', 'answer', 'verdict' or 'close'; returns unsubscribe. */
  on<E extends keyof BridgeEvents>(
    event: E,
    listener: (value: BridgeEvents[E]) => void,
  ): () => void;
}

/** The attach options checked, with defaults; throws 'invalid_options'. */
function checkAttachOptions(options: AttachOptions): AttachSettings {
  if (typeof options?.waitFor !== 'function')
    throw new BridgeError('invalid_options', 'attachWaitFor needs options.waitFor');
  const maxAttempts = countOption(options.maxAttempts, DEFAULT_MAX_ATTEMPTS, 'maxAttempts');
  return {
    waitFor: options.waitFor,
    serverName: options.serverName,
    sampling: options.sampling,
    roots: options.roots,
    extensions: options.extensions ?? [],
    maxAttempts,
    limits: resolveLimits(options.limits),
    serverId: options.serverId,
  };
}

/** What extensions see of a bridge. */
function createHost(
  port: ClientPort,
  settings: AttachSettings,
  modes: readonly ElicitationMode[],
  tracker: RequestTracker,
): ExtensionHost {
  return {
    get era() {
      return port.era() ?? 'legacy';
    },
    get serverName() {
      return serverNameOf(port, settings.serverName);
    },
    get protocolVersion() {
      return port.protocolVersion();
    },
    waitFor: settings.waitFor,
    modes,
    onNotification: port.onNotification,
    openRequests: () => [...tracker.open],
    on: (event, listener) => tracker.listeners[event].add(listener),
    // Extensions ask through the bridge's own path, so their questions show like the bridge's.
    ...hostQuestions(settings.waitFor, tracker.hooks, tracker.listeners.close.add),
  };
}

/**
 * The connection's end reaches the bridge through the client's public `onclose`, chained after any
 * handler set before (the SDKs keep their own on the transport); returns the unchaining.
 */
function chainOnClose(client: object, onEnd: () => void): () => void {
  const closable = client as { onclose?: (() => void) | undefined };
  const previous = closable.onclose;
  const onClose = () => {
    try {
      previous?.call(client);
    } finally {
      onEnd();
    }
  };
  closable.onclose = onClose;
  return () => {
    if (closable.onclose === onClose) closable.onclose = previous;
  };
}

/**
 * The era of the connection, chosen once it is known and kept until the connection closes (a
 * client not connected yet is served as legacy, without choosing).
 */
function eraChooser(port: ClientPort): { era(): Era; forget(): void } {
  let chosen: Era | undefined;
  return {
    era: () => {
      if (chosen !== undefined) return chosen;
      const negotiated = port.era();
      const era = eraFor(negotiated);
      if (negotiated !== undefined) chosen = era;
      return era;
    },
    forget: () => void (chosen = undefined),
  };
}

/** Extensions are set up once the handlers are registered (unless the bridge was detached first). */
function extensionLifecycle(host: ExtensionHost, extensions: readonly BridgeExtension[]) {
  const cleanups: Array<() => void> = [];
  let ended = false;
  return {
    setup(removers: Array<() => void>) {
      if (ended) {
        for (const remove of removers) remove();
        return;
      }
      cleanups.push(...removers);
      for (const extension of extensions) {
        const cleanup = extension.setup?.(host);
        if (typeof cleanup === 'function') cleanups.push(cleanup);
      }
    },
    end() {
      ended = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}

/**
 * One page of tools/list, prompts/list or resources/list; failures become BridgeErrors. The port
 * hands the SDK only the request options it names one by one (of ListOptions: signal and timeout);
 * the cursor goes in the params.
 */
function listPage(
  port: ClientPort,
  method: ListMethod,
  options: ListOptions = {},
): Promise<Record<string, unknown>> {
  const params = options.cursor === undefined ? undefined : { cursor: options.cursor };
  return (port.list(method, params, options) as Promise<Record<string, unknown>>).catch(
    (error: unknown): never => {
      throw toBridgeError(error, options.signal);
    },
  );
}

/** Attach `options.waitFor` to an MCP client (v1 or v2) and return the bridge; call before connect so capabilities are declared. */
export function attachWaitFor(client: object, options: AttachOptions): Bridge {
  const settings = checkAttachOptions(options);
  // The bridge's own view of the client (one per attachment; a later attach makes its own).
  const port = createClientPort(client);
  if (options.v1Schemas) port.useSchemas?.(options.v1Schemas);
  const capabilities = elicitationCapabilities(options);
  // The modes those capabilities declare (options.waitFor is checked, so every served one).
  const modes = servedModes(options.modes);
  // The Tasks extension is declared too: a server may then answer a tools/call with a task, which
  // the bridge waits for (2026-07-28 sends these capabilities with every request).
  if (!port.isConnected())
    port.registerCapabilities({ ...capabilities, extensions: { [TASKS_EXTENSION]: {} } });

  const tracker = createRequestTracker();
  const host = createHost(port, settings, modes, tracker);
  const state: BridgeState = {
    port,
    settings,
    modes,
    host,
    hooks: tracker.hooks,
    links: createQuestionLinks(),
    receiver: isOptedIn(options.taskElicitation)
      ? createTaskReceiver(options.taskElicitation === true ? {} : options.taskElicitation || {})
      : undefined,
    openCount: () => tracker.open.size,
  };
  const chooser = eraChooser(port);
  const closed = () => {
    chooser.forget();
    tracker.listeners.close.emit(undefined);
  };
  const unchain = chainOnClose(client, closed);
  const lifecycle = extensionLifecycle(host, settings.extensions);
  const ready = registerHandlers(state, chooser.era).then(lifecycle.setup);
  // Keep an unobserved failure (v1 without schemas) from becoming an unhandled rejection; callers await `ready`.
  ready.catch(() => undefined);

  let detached = false;
  const target = (): CallTarget => ({ port, bridge: detached ? undefined : state });
  const list = (method: ListMethod) => (listOptions?: ListOptions) =>
    listPage(port, method, listOptions);

  return {
    client,
    ready,
    host,
    get era() {
      return host.era;
    },
    get serverName() {
      return host.serverName;
    },
    callTool: bridgeCall<ToolParams>('tools/call', target),
    getPrompt: bridgeCall<PromptParams>('prompts/get', target),
    readResource: bridgeCall<ResourceParams>('resources/read', target),
    get serverId() {
      return serverIdOf(port, settings.serverId);
    },
    resume: (suspension, answers, resumeOptions) =>
      resumeCall(target, suspension, answers, resumeOptions),
    tasks: bridgeTasks(target),
    listTools: list('tools/list'),
    listPrompts: list('prompts/list'),
    listResources: list('resources/list'),
    openRequests: host.openRequests,
    on: host.on,
    detach: () => {
      if (detached) return;
      detached = true;
      unchain();
      // Nobody will serve the answers any more: close every open question (each is answered cancel).
      state.links.abortAll(new BridgeError('aborted', 'The bridge was detached'));
      state.receiver?.close();
      tracker.listeners.close.emit(undefined);
      lifecycle.end();
    },
  };
}
