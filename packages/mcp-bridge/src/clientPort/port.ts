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

/**
 * The methods the bridge sends as raw requests (Tasks extension, and the 2025-11-25 experimental
 * tasks): their results come back unvalidated, as plain records the caller checks.
 */
export type RawMethod = `tasks/${string}` | 'subscriptions/listen' | 'tools/call';

/** Options of a raw request. */
export interface PortRequestOptions {
  signal?: AbortSignalLike | undefined;
  timeout?: number | undefined;
  /** Extra HTTP headers (Streamable HTTP); `Mcp-Name` is set by the port for the task methods. */
  headers?: Record<string, string> | undefined;
}

/** The methods whose `Mcp-Name` header carries `params.taskId` (SEP-2663's Streamable HTTP binding). */
export const TASK_ID_METHODS: readonly string[] = ['tasks/get', 'tasks/update', 'tasks/cancel'];

/** The SDK-neutral client. */
export interface ClientPort {
  era(): ProtocolEra | undefined;
  serverName(): string | undefined;
  /** The server's serverInfo as `name@version`, once connected (a task reference's default identity). */
  serverIdentity(): string | undefined;
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
   * One raw request of `method` (tasks/*, subscriptions/listen): the result as the server sent it
   * (a missing resultType is complete), any JSON-RPC error thrown as the SDK threw it. The task
   * methods carry `Mcp-Name: <params.taskId>` (merged case-insensitively with what the SDK sets).
   */
  request(
    method: RawMethod,
    params: Record<string, unknown>,
    options: PortRequestOptions,
  ): Promise<Record<string, unknown>>;
  list(
    method: ListMethod,
    params: Record<string, unknown> | undefined,
    options: PortCallOptions,
  ): Promise<unknown>;
}
