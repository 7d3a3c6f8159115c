/**
 * The answers one upstream session still owes its server: the requests it pushed (elicitation,
 * sampling, roots, ping) not yet answered, and the answers still being sent. Closing the session
 * before they are out loses them — the server sees its push fail with the closed connection
 * instead of the `cancel` the gateway gave — so a session is closed only once `settled()`.
 *
 * Watched at the SDK Transport interface's own members (`onmessage`, `send`): a request counts
 * from its arrival until the `send` of its response (result or error) resolved or failed; the
 * server's `notifications/cancelled` for it, or a close, owes nothing more. Ids are the
 * server's JSON-RPC ids, unique among its open requests; they are kept at most `MAX_OWED`, so a
 * server flooding requests nobody answers cannot grow the set.
 */
import { isRecord } from '@waitfor/runtime';

/** The most unanswered upstream requests tracked per session (past it, older ones are forgotten). */
export const MAX_OWED = 1_024;

type Receive = (message: unknown, ...rest: unknown[]) => void;

/** The part of an SDK transport watched (public members of the SDK's `Transport`). */
export interface WatchedTransport {
  onmessage?: Receive | undefined;
  onclose?: (() => void) | undefined;
  send(message: never, ...rest: never[]): Promise<void>;
}

const idOf = (message: unknown): unknown => (isRecord(message) ? message['id'] : undefined);

const isRequest = (message: unknown): boolean =>
  isRecord(message) && typeof message['method'] === 'string' && message['id'] !== undefined;

const isResponse = (message: unknown): boolean =>
  isRecord(message) &&
  message['method'] === undefined &&
  ('result' in message || 'error' in message);

export class AnswersOwed {
  readonly #owed = new Set<unknown>();
  #wake: Array<() => void> = [];

  /** Watch `transport` from now on (the session's transport, once connected). */
  watch(transport: WatchedTransport | undefined): void {
    if (transport === undefined) return;
    const receive = transport.onmessage;
    const send = transport.send;
    const close = transport.onclose;
    transport.onmessage = (message, ...rest) => {
      this.#received(message);
      receive?.call(transport, message, ...rest);
    };
    transport.send = ((message: unknown, ...rest: never[]) => {
      const sent = send.call(transport, message as never, ...rest);
      const id = idOf(message);
      if (!isResponse(message) || !this.#owed.has(id)) return sent;
      const done = () => this.#forget(id);
      void sent.then(done, done);
      return sent;
    }) as WatchedTransport['send'];
    transport.onclose = () => {
      for (const id of [...this.#owed]) this.#forget(id);
      close?.call(transport);
    };
  }

  /** Resolves once every request received so far is answered and its answer sent. */
  async settled(): Promise<void> {
    while (this.#owed.size > 0) await new Promise<void>((resolve) => this.#wake.push(resolve));
  }

  #received(message: unknown): void {
    if (isRequest(message)) {
      if (this.#owed.size >= MAX_OWED) this.#forget(this.#owed.values().next().value);
      this.#owed.add(idOf(message));
      return;
    }
    // The server withdrew its own request: the SDK then sends no answer for it.
    if (isRecord(message) && message['method'] === 'notifications/cancelled') {
      const params = message['params'];
      if (isRecord(params)) this.#forget(params['requestId']);
    }
  }

  #forget(id: unknown): void {
    if (!this.#owed.delete(id)) return;
    if (this.#owed.size === 0) for (const wake of this.#wake.splice(0)) wake();
  }
}
