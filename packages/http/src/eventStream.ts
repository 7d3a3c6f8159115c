import type { ConnectionState } from '@waitfor/core';
import { createListeners, schedule } from '@waitfor/runtime';
import type { HttpInboxError } from './httpError';
import { asError, errorOf } from './responseError';
import { readEvents } from './readEvents';

// The state of the remote inbox's event stream: core's ConnectionState, which react's
// ConnectionStatus shows.
export type { ConnectionState };

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
  /** @internal Where a throwing connection listener is reported (the remote inbox's `onError`). */
  onListenerError?: (cause: unknown) => void;
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
  const connection = createListeners(options.onListenerError);
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
