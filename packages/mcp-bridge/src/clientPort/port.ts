/**
 * The SDK-neutral client the rest of the bridge talks to: what each generation's port
 * (`v1.ts`, `v2.ts`) implements. Types only, at the bottom of the port's files.
 */
import type { AbortSignalLike } from '@waitfor/core';
import type { CallMethod, ListMethod, ProtocolEra } from '../protocol';
import type { CallProgress } from '../types';

/** The server→client request methods the bridge answers. */
export type InboundMethod =
  | 'elicitation/create'
  | 'sampling/createMessage'
  | 'roots/list'
  /** 2025-11-25 tasks, the host as receiver of task-augmented elicitation (`tasks/receiver.ts`). */
  | ReceiverMethod;

/** The server's requests for the tasks a receiving host created. */
export type ReceiverMethod = 'tasks/get' | 'tasks/result' | 'tasks/list' | 'tasks/cancel';

/** What a registered handler receives besides the params. */
export interface InboundContext {
  signal: AbortSignalLike | undefined;
  /** v2 auto-loop: the inputRequests key; wire requests: the JSON-RPC id. */
  id: unknown;
}

/** A handler the bridge registers on a client. */
export type InboundHandler = (
  params: Record<string, unknown>,
  context: InboundContext,
) => Promise<unknown>;

/** The v1 zod schemas needed to register handlers on a v1 client (from '@modelcontextprotocol/sdk/types.js'). */
export interface V1Schemas {
  ElicitRequestSchema: unknown;
  CreateMessageRequestSchema?: unknown;
  ListRootsRequestSchema?: unknown;
  GetTaskRequestSchema?: unknown;
  GetTaskPayloadRequestSchema?: unknown;
  ListTasksRequestSchema?: unknown;
  CancelTaskRequestSchema?: unknown;
}

/** Per-call options the bridge passes to the SDK. */
export interface PortCallOptions {
  signal?: AbortSignalLike | undefined;
  timeout?: number | undefined;
  /** Ask the v2 client to hand back `input_required` instead of driving it. */
  raw?: boolean;
  /**
   * One modern-era call's legs (the same object for each): the first tools/call leg records the
   * `Mcp-Param-*` headers it sent, and the retries send them again, as the SDK's own loop does.
   */
  legs?: { headers?: unknown } | undefined;
  /** The SDKs' progress options, passed through as named. */
  onprogress?: ((progress: CallProgress) => void) | undefined;
  resetTimeoutOnProgress?: boolean | undefined;
  maxTotalTimeout?: number | undefined;
}

/** Options of a raw request. */
export interface PortRequestOptions {
  signal?: AbortSignalLike | undefined;
  timeout?: number | undefined;
}

/** The SDK-neutral client. */
export interface ClientPort {
  era(): ProtocolEra | undefined;
  serverName(): string | undefined;
  /** The protocol revision the client negotiated, when it says (v1 over stdio keeps none). */
  protocolVersion(): string | undefined;
  isConnected(): boolean;
  /** The capabilities the server declared, once connected. */
  serverCapabilities(): Record<string, unknown> | undefined;
  /** v1 only: the schemas later registrations use (the last given win). */
  useSchemas?(schemas: V1Schemas): void;
  registerCapabilities(capabilities: Record<string, unknown>): void;
  setRequestHandler(method: InboundMethod, handler: InboundHandler): Promise<() => void>;
  onNotification(method: string, handler: (params: Record<string, unknown>) => void): () => void;
  call(
    method: CallMethod,
    params: Record<string, unknown>,
    options: PortCallOptions,
  ): Promise<unknown>;
  /**
   * One raw request (2025-11-25 tasks: a task-augmented tools/call, tasks/*): the result as the
   * server sent it, unvalidated (the caller checks it); a JSON-RPC error thrown as the SDK threw it.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options: PortRequestOptions,
  ): Promise<Record<string, unknown>>;
  list(
    method: ListMethod,
    params: Record<string, unknown> | undefined,
    options: PortCallOptions,
  ): Promise<unknown>;
}
