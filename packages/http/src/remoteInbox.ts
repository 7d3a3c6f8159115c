import { parseAnswer, parseRequest } from '@waitfor/core';
import type { Answer, Ended, Request as WaitforRequest, Inbox, WaitFor } from '@waitfor/core';
import { createListeners, createRecentMemory, reportUncaught } from '@waitfor/runtime';
import type { Listeners, RecentMemory } from '@waitfor/runtime';
import { endingIn, endingOf } from './endings';
import type { ConnectionState, EventStream, EventStreamOptions } from './eventStream';
import { followEventStream } from './eventStream';
import { HttpInboxError } from './httpError';
import { asError, errorOf } from './responseError';
import { answerPath, changeEvent, eventsPath, snapshotEvent } from './wire';

export { followEventStream } from './eventStream';
export type { ConnectionState, EventStream, EventStreamOptions } from './eventStream';

/** Options of createRemoteInbox. */
export interface RemoteInboxOptions extends Omit<EventStreamOptions, 'url'> {
  /** The handler's base URL, e.g. `https://app.example/api/inbox` or `/api/inbox`. */
  url: string;
  /**
   * Receives an HttpInboxError `listener_failed` (what the listener threw as `cause`) for each
   * listener (of the questions or of the connection) that throws; by default the platform's
   * `reportError`, or `console.error`. The other listeners and the change go on either way.
   */
  onError?: (error: HttpInboxError) => void;
  /** The clock `ended` remembers by (default Date.now). */
  now?: () => number;
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
   * (`conflict`: it was answered elsewhere first, or ended; the error's `ended` and `answeredBy`
   * say how and by whom, where the server's inbox can) it stays out, as it has ended; a 503 (open
   * again, or the server failed) leaves it to answer again. False for
   * a question that is not listed or already being sent; throws `invalid_answer` for a malformed one.
   */
  answer(answer: Answer): boolean;
  /**
   * Core's `Inbox.submit` contract over HTTP: as `answer`, resolving with the final word — true when
   * the server confirmed this answer won; false when it was not sent (not listed, being sent) or
   * refused (a 409: answered elsewhere first, or ended; any other refusal is in `getAnswerError`).
   */
  submit(answer: Answer): Promise<boolean>;
  /**
   * How a question this page listed ended, as the server said: from the change event that removed
   * it (its `ended`, where the server's inbox could say at once), or the 409 an answer to it got,
   * or this page's own answer that went through (`answered`). Undefined while it is listed, and
   * when nobody said; kept for the last 1,024 questions, at most 10 minutes (by `now`).
   */
  ended(id: string): Ended | undefined;
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

/**
 * Creates the browser side of createInboxHandler: the open questions follow the server's event
 * stream, so @waitfor/react's hooks and views work on it unchanged.
 */
export function createRemoteInbox(options: RemoteInboxOptions): RemoteInbox {
  return new RemoteQuestions(options).inbox();
}

/** The questions the server lists for this page, the answers being sent, and why answers failed. */
class RemoteQuestions {
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly report: (cause: unknown) => void;
  private readonly changes: Listeners<void>;
  // What the server says is open, and the ids being sent (hidden from the snapshot meanwhile).
  private open = new Map<string, WaitforRequest>();
  private readonly sending = new Set<string>();
  private readonly answerErrors = new Map<string, HttpInboxError>();
  // How questions that left ended, as the server said (the one bounded memory of the packages).
  private readonly endings: RecentMemory<Ended>;
  private readonly now: () => number;
  private snapshot: readonly WaitforRequest[] | undefined;
  private readonly stream: EventStream;

  constructor(private readonly options: RemoteInboxOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const onError = options.onError ?? reportUncaught;
    this.report = (cause) =>
      onError(
        new HttpInboxError('listener_failed', 'A listener of the remote inbox threw', { cause }),
      );
    this.changes = createListeners(this.report);
    this.now = options.now ?? (() => Date.now());
    this.endings = createRecentMemory<Ended>({}, this.now);
    this.stream = followEventStream(
      { ...options, url: `${this.base}${eventsPath}`, onListenerError: this.report },
      (event, data) => this.apply(event, data),
    );
  }

  private changed(): void {
    this.snapshot = undefined;
    this.changes.emit();
  }

  private apply(event: string, data: unknown): void {
    const record = data as {
      requests?: unknown;
      added?: unknown;
      removed?: unknown;
      ended?: unknown;
    } | null;
    if (event === snapshotEvent) {
      this.open = new Map();
      for (const request of listOf(record?.requests)) this.list(request);
    } else if (event === changeEvent) {
      const removed = Array.isArray(record?.removed) ? record.removed : [];
      // Remembered before the change is told: a view that closes on it reads how at once.
      for (const id of removed) if (typeof id === 'string') this.remove(id, record?.ended);
      for (const request of listOf(record?.added)) this.list(request);
    } else return;
    this.changed();
  }

  private list(request: WaitforRequest): void {
    this.open.set(request.id, request);
    this.endings.delete(request.id);
  }

  /**
   * The server removed `id`: how it ended is taken from `ended` (its own key only) for a question
   * this page listed or knew had ended, never for an id it never had.
   */
  private remove(id: string, ended: unknown): void {
    const known = this.open.delete(id) || this.endings.get(id) !== undefined;
    const end = known ? endingIn(ended, id, this.now()) : undefined;
    if (end !== undefined) this.endings.set(id, end);
  }

  /** Remembers how `id` ended unless the server's change event said so first. */
  private noteEnded(id: string, end: Ended | undefined): void {
    if (end !== undefined && this.endings.get(id) === undefined) this.endings.set(id, end);
  }

  /** POSTs the answer; undefined when the server took it, else why not. */
  private async send(id: string, value: Answer): Promise<HttpInboxError | undefined> {
    const headers =
      typeof this.options.headers === 'function' ? this.options.headers() : this.options.headers;
    try {
      const response = await this.fetch(`${this.base}${answerPath(id)}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(value),
        credentials: this.options.credentials ?? 'same-origin',
      });
      return response.ok ? undefined : await errorOf(response);
    } catch (cause) {
      return asError(cause);
    }
  }

  async submit(value: Answer): Promise<boolean> {
    const { id } = parseAnswer(value);
    if (!this.open.has(id) || this.sending.has(id)) return false;
    this.sending.add(id);
    this.answerErrors.delete(id);
    this.changed();
    const error = await this.send(id, value);
    this.sending.delete(id);
    // Confirmed: the question stays hidden until the server's change removes it for good.
    if (!error) {
      this.open.delete(id);
      this.noteEnded(id, { reason: 'answered', at: this.now() });
      this.changed();
      return true;
    }
    // Kept after the question left too (a 409: answered elsewhere), until the next answer to it.
    this.answerErrors.set(id, error);
    // The server says it has ended: it is not open, whether or not its change has arrived yet.
    if (error.code === 'conflict') {
      this.open.delete(id);
      const said = { reason: error.ended, answeredBy: error.answeredBy };
      this.noteEnded(id, endingOf(said, this.now()));
    }
    if (this.answerErrors.size > maxAnswerErrors)
      this.answerErrors.delete(this.answerErrors.keys().next().value!);
    this.changed();
    return false;
  }

  answer(value: Answer): boolean {
    const { id } = parseAnswer(value);
    if (!this.open.has(id) || this.sending.has(id)) return false;
    void this.submit(value);
    return true;
  }

  /** The public face: methods without `this`, so a view may pass them around on their own. */
  inbox(): RemoteInbox {
    const { stream } = this;
    return {
      waitFor: () =>
        Promise.reject(
          new HttpInboxError('unsupported', 'A remote inbox cannot ask: ask on the server.'),
        ),
      getSnapshot: () =>
        (this.snapshot ??= [...this.open.values()].filter(
          (request) => !this.sending.has(request.id),
        )),
      subscribe: (listener) => this.changes.add(listener),
      answer: (value) => this.answer(value),
      submit: (value) => this.submit(value),
      cancel: (id) => this.answer({ id, ok: false, reason: 'cancelled' }),
      get: (id) => (this.sending.has(id) ? undefined : this.open.get(id)),
      ended: (id) => (this.open.has(id) ? undefined : this.endings.get(id)),
      getAnswerError: (id) => this.answerErrors.get(id),
      getConnectionState: stream.getConnectionState,
      subscribeConnection: stream.subscribeConnection,
      getConnectionError: stream.getConnectionError,
      close: stream.close,
    };
  }
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
