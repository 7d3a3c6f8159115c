/**
 * The wire data of waitfor. The JSON keys of Request and Answer are fixed: they cross processes
 * and get persisted. Never rename them and never add top-level keys; extra facts go under `data`.
 */

/** What a Request asks for. An open vocabulary: these four are the ones waitfor itself produces. */
export type RequestKind = 'input' | 'authorization' | 'approval' | 'question' | (string & {});

/** Why an Answer is not ok. An open vocabulary: these three are the ones waitfor itself produces. */
export type AnswerReason = 'declined' | 'cancelled' | 'expired' | (string & {});

/** Who asks: set by the adapter that produced the Request, read by UIs and policies. */
export interface RequestOrigin {
  /** A human-readable name of the asking server or system (a UI must show it). */
  server: string;
  /** The server's task this question belongs to (MCP Tasks: a task-backed call's `taskId`). */
  taskId?: string;
  [key: string]: unknown;
}

/** Extra facts of a Request. `schema` holds a form's restricted JSON Schema; `origin` says who asks. */
export interface RequestData {
  schema?: unknown;
  origin?: RequestOrigin;
  /** A re-asked form: one message per field that the previous answer got wrong. */
  errors?: Record<string, string>;
  /** A re-asked form: the values the person gave last time, to show again over the defaults. */
  values?: Record<string, unknown>;
  /** A re-asked form: which attempt this is (the first re-ask is 2). */
  attempt?: number;
  [key: string]: unknown;
}

/** One question for a person. */
export interface Request {
  id: string;
  kind: RequestKind;
  prompt: string;
  url?: string;
  data?: RequestData;
  /** RFC 3339 date-time after which the question can no longer be answered. */
  expiresAt?: string;
}

/** The answer to one Request, matched by `id`. */
export interface Answer {
  id: string;
  ok: boolean;
  data?: Record<string, unknown>;
  reason?: AnswerReason;
}

/**
 * The part of an AbortSignal that waitfor uses. Declared here so the main entry needs neither DOM
 * nor Node types; a real AbortSignal fits it.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What a caller may pass along with a Request. */
export interface WaitForContext {
  signal?: AbortSignalLike;
}

/** The one host slot: ask a person (or a policy) and resolve with their Answer. */
export type WaitFor = (request: Request, context?: WaitForContext) => Promise<Answer>;

/**
 * Where a link to a server or a remote inbox stands: the bridge's connection, the http remote
 * inbox's event stream, react's `ConnectionStatus`. Closed stays closed.
 */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed';
