import { parseAnswer, parseRequest } from '@waitfor/core';
import type { Answer, Inbox, Request as WaitforRequest, WaitFor } from '@waitfor/core';
import { createListeners, schedule } from '@waitfor/runtime';
import { HttpInboxError } from './httpError';
import type { HttpInboxErrorCode } from './httpError';
import { readEvents } from './readEvents';
import { answerPath, changeEvent, eventsPath, snapshotEvent } from './wire';

/** The state of the remote inbox's event stream (the same words as @waitfor/react's ConnectionStatus). */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** Options of followEventStream: where the stream is and how it reconnects. */
export interface EventStreamOptions {
  /** The stream's URL, e.g. `/api/events`. */
  url: string;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Headers for every request, e.g. an Authorization header; a function is called per request. */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** Whether cookies are sent (default `same-origin`; `include` for a handler on another origin). */
  credentials?: RequestCredentials;
  /** The first reconnect delay in ms (default 500); it doubles per failure up to `maxRetryMs`. */
  retryMs?: number;
  /** The longest reconnect delay in ms (default 30 s). */
  maxRetryMs?: number;
  /**
   * A stream silent this long (no event, no heartbeat) is taken for dead and reconnected (default
   * 45 s: three of the handler's default heartbeats). Keep it above twice the handler's heartbeatMs.
   */
  idleMs?: number;
  /** The largest event read, in characters (default 32 Mi); a larger one ends the stream. */
  maxEventChars?: number;
}

/** Options of createRemoteInbox. */
export interface RemoteInboxOptions extends Omit<EventStreamOptions, 'url'> {
  /** The handler's base URL, e.g. `https://app.example/api/inbox` or `/api/inbox`. */
  url: string;
}

/** A followed Server-Sent Events stream: its state, and how to stop it. */
export interface EventStream {
  /** The stream's state; it reconnects by itself after an error or a closed connection. */
  getConnectionState(): ConnectionState;
  /** Calls `listener` after every change of the connection state; returns the unsubscribe function. */
  subscribeConnection(listener: () => void): () => void;
  /** Why the stream last failed (e.g. `unauthorized`), until it connects again. */
  getConnectionError(): HttpInboxError | undefined;
  /** Stops the stream for good (state `closed`). */
  close(): void;
}

/** A server's inbox seen from a browser: core's `Inbox`, plus the stream's state and answer errors. */
export interface RemoteInbox extends Inbox {
  /**
   * Always rejects with HttpInboxError `unsupported`: questions are asked on the server (its inbox's
   * waitFor); a browser only lists and answers them.
   */
  readonly waitFor: WaitFor;
  /**
   * Sends the answer: the question leaves the snapshot at once (sent) and stays out once the server
   * confirms. On a refusal or a failure it comes back and `getAnswerError(id)` says why; on a 409
   * (`conflict`: it was answered elsewhere first, or ended) it stays out, as it has ended. False for
   * a question that is not listed or already being sent; throws `invalid_answer` for a malformed one.
   */
  answer(answer: Answer): boolean;
  /** As `answer`, resolving with the final word: true when confirmed, false when not sent or refused. */
  submit(answer: Answer): Promise<boolean>;
  /**
   * Why the last answer to `id` failed, for the UI to show; cleared by the next answer to it, kept
   * after the question left (the last 256 failures).
   */
  getAnswerError(id: string): HttpInboxError | undefined;
  /** The event stream's state; it reconnects by itself after an error or a closed connection. */
  getConnectionState(): ConnectionState;
  /** Calls `listener` after every change of the connection state; returns the unsubscribe function. */
  subscribeConnection(listener: () => void): () => void;
  /** Why the stream last failed (e.g. `unauthorized`), until it connects again. */
  getConnectionError(): HttpInboxError | undefined;
  /** Stops the stream for good (state `closed`); answers in flight still settle. */
  close(): void;
}

const maxAnswerErrors = 256;

const codeOf: Record<number, HttpInboxErrorCode> = {
  400: 'invalid_answer',
  401: 'unauthorized',
  403: 'refused',
  404: 'not_found',
  409: 'conflict',
  413: 'invalid_answer',
  415: 'invalid_answer',
  422: 'invalid_form',
  429: 'refused',
};

/**
 * Follows a Server-Sent Events stream (fetch, so it can send headers): `onEvent` gets each event's
 * type and parsed JSON data; after an error, a silent stream or the server's end it reconnects with
 * jittered exponential backoff, resuming with `Last-Event-ID`. The remote inbox's stream, and any
 * other a page follows the same way.
 */
export function followEventStream(
  options: EventStreamOptions,
  onEvent: (event: string, data: unknown) => void,
): EventStream {
  const retryMs = options.retryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  const idleMs = options.idleMs ?? 45_000;
  const maxEventChars = options.maxEventChars ?? 32 * 1024 * 1024;
  const connection = createListeners();
  let state: ConnectionState = 'connecting';
  let connectionError: HttpInboxError | undefined;
  let lastEventId: string | undefined;
  const stop = new AbortController();

  const setState = (next: ConnectionState, error?: HttpInboxError): void => {
    connectionError = error;
    if (next === state) return;
    state = next;
    connection.emit();
  };

  /** One connection, until it ends; true when it delivered an event (the backoff starts again). */
  const attempt = async (): Promise<boolean> => {
    // One attempt's own signal: closing the stream, or a silent stream, ends it.
    const attempt = new AbortController();
    const abort = (): void => attempt.abort();
    stop.signal.addEventListener('abort', abort);
    let stopIdle = (): void => {};
    const alive = (): void => {
      stopIdle();
      stopIdle = schedule(idleMs, abort);
    };
    let delivered = false;
    try {
      alive();
      const body = await openStream(options, lastEventId, attempt.signal);
      // A resume is connected at once (its catch-up may be empty); a first connection once its first
      // event is applied, so whoever reads the state "connected" reads what the stream delivered.
      if (lastEventId !== undefined) setState('connected');
      for await (const event of readEvents(body, maxEventChars, alive)) {
        delivered = true;
        if (event.id !== undefined) lastEventId = event.id;
        onEvent(event.event, JSON.parse(event.data));
        setState('connected');
      }
      // The server ended the stream (a restart, closeStreams): reconnect soon, resuming.
      if (!stop.signal.aborted) setState('reconnecting');
    } catch (error) {
      if (!stop.signal.aborted) setState('reconnecting', asError(error));
    } finally {
      stopIdle();
      stop.signal.removeEventListener('abort', abort);
    }
    return delivered;
  };

  const run = async (): Promise<void> => {
    // Only a stream that delivered something resets the backoff: one that ends at once does not.
    for (let failures = 1; !stop.signal.aborted;) {
      failures = (await attempt()) ? 1 : failures + 1;
      if (stop.signal.aborted) break;
      // Backoff with jitter, so a restarted server is not hit by every page in the same instant.
      const delay = Math.min(maxRetryMs, retryMs * 2 ** (failures - 2)) * (0.5 + Math.random() / 2);
      await pause(delay, stop.signal);
    }
    setState('closed');
  };
  void run();

  return {
    getConnectionState: () => state,
    subscribeConnection: connection.add,
    getConnectionError: () => connectionError,
    close() {
      stop.abort();
      setState('closed');
    },
  };
}

/** Opens the stream once (resuming after `lastEventId`): its body, or the refusal as an error. */
async function openStream(
  options: EventStreamOptions,
  lastEventId: string | undefined,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const fetchOf = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers = typeof options.headers === 'function' ? options.headers() : options.headers;
  const response = await fetchOf(options.url, {
    headers: {
      ...headers,
      accept: 'text/event-stream',
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    credentials: options.credentials ?? 'same-origin',
    cache: 'no-store',
    signal,
  });
  if (!response.ok || !response.body) throw await errorOf(response);
  return response.body;
}

/** Waits `delay` ms, or until `signal` aborts. */
function pause(delay: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      cancel();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const cancel = schedule(delay, done);
    signal.addEventListener('abort', done);
  });
}

/**
 * Creates the browser side of createInboxHandler: the open questions follow the server's event
 * stream, so @waitfor/react's hooks and views work on it unchanged.
 */
export function createRemoteInbox(options: RemoteInboxOptions): RemoteInbox {
  const base = options.url.replace(/\/+$/, '');
  const fetchOf = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headersOf = (): Record<string, string> =>
    typeof options.headers === 'function' ? options.headers() : { ...options.headers };
  const credentials = options.credentials ?? 'same-origin';
  const changes = createListeners();
  // What the server says is open, and the ids being sent (hidden from the snapshot meanwhile).
  let open = new Map<string, WaitforRequest>();
  const sending = new Set<string>();
  const answerErrors = new Map<string, HttpInboxError>();
  let snapshot: readonly WaitforRequest[] | undefined;

  const changed = (): void => {
    snapshot = undefined;
    changes.emit();
  };

  const apply = (event: string, data: unknown): void => {
    const record = data as { requests?: unknown; added?: unknown; removed?: unknown } | null;
    if (event === snapshotEvent) {
      open = new Map();
      for (const request of listOf(record?.requests)) open.set(request.id, request);
    } else if (event === changeEvent) {
      const removed = Array.isArray(record?.removed) ? record.removed : [];
      for (const id of removed) if (typeof id === 'string') open.delete(id);
      for (const request of listOf(record?.added)) open.set(request.id, request);
    } else return;
    changed();
  };

  const submit = async (value: Answer): Promise<boolean> => {
    const { id } = parseAnswer(value);
    if (!open.has(id) || sending.has(id)) return false;
    sending.add(id);
    answerErrors.delete(id);
    changed();
    let error: HttpInboxError | undefined;
    try {
      const response = await fetchOf(`${base}${answerPath(id)}`, {
        method: 'POST',
        headers: { ...headersOf(), 'content-type': 'application/json' },
        body: JSON.stringify(value),
        credentials,
      });
      if (!response.ok) error = await errorOf(response);
    } catch (cause) {
      error = asError(cause);
    }
    sending.delete(id);
    // Confirmed: the question stays hidden until the server's change removes it for good.
    if (!error) {
      open.delete(id);
      changed();
      return true;
    }
    // Kept after the question left too (a 409: answered elsewhere), until the next answer to it.
    answerErrors.set(id, error);
    // The server says it has ended: it is not open, whether or not its change has arrived yet.
    if (error.code === 'conflict') open.delete(id);
    if (answerErrors.size > maxAnswerErrors) answerErrors.delete(answerErrors.keys().next().value!);
    changed();
    return false;
  };

  const answer = (value: Answer): boolean => {
    const { id } = parseAnswer(value);
    if (!open.has(id) || sending.has(id)) return false;
    void submit(value);
    return true;
  };

  const stream = followEventStream({ ...options, url: `${base}${eventsPath}` }, apply);

  return {
    waitFor: () =>
      Promise.reject(
        new HttpInboxError('unsupported', 'A remote inbox cannot ask: ask on the server.'),
      ),
    getSnapshot: () =>
      (snapshot ??= [...open.values()].filter((request) => !sending.has(request.id))),
    subscribe: changes.add,
    answer,
    submit,
    // Methods without `this`: a view may pass them around on their own.
    cancel(id) {
      return answer({ id, ok: false, reason: 'cancelled' });
    },
    get: (id) => (sending.has(id) ? undefined : open.get(id)),
    getAnswerError: (id) => answerErrors.get(id),
    ...stream,
  };
}

/** The Requests of an event, each checked: a malformed one is left out, not shown. */
function listOf(value: unknown): WaitforRequest[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((request) => {
    try {
      return [parseRequest(request)];
    } catch {
      return [];
    }
  });
}

/** The typed error of a refused response, with the server's message when it sent one. */
async function errorOf(response: Response): Promise<HttpInboxError> {
  let body: { message?: unknown; errors?: unknown } = {};
  try {
    body = (await response.json()) ?? {};
  } catch {
    // Not JSON: the status says enough.
  }
  const message =
    typeof body.message === 'string' ? body.message : `The server answered ${response.status}.`;
  const errors =
    body.errors && typeof body.errors === 'object'
      ? (body.errors as Record<string, string>)
      : undefined;
  return new HttpInboxError(codeOf[response.status] ?? 'unavailable', message, {
    status: response.status,
    ...(errors ? { errors } : {}),
  });
}

function asError(error: unknown): HttpInboxError {
  return HttpInboxError.isInstance(error)
    ? error
    : new HttpInboxError('unavailable', 'The server could not be reached.', { cause: error });
}
