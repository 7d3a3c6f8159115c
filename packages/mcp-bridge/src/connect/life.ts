/**
 * One connection's life on a v2 client, as `connect` runs it: the transport opened (OAuth finished
 * once when the provider sent the person to authorize), a lost connection noticed (the transport
 * closed by itself, its fetch failed or the server forgot the session, an error a ping confirms),
 * reconnection with backoff, and the close.
 *
 * Invariants: once lost, every open question ends `connection_lost` and new ones do until the
 * connection is back (`GuardedWaitFor`); nothing the bridge does itself (swapping or closing the
 * transport) counts as a loss; closed stays closed.
 */
import { schedule } from '@waitfor/runtime';
import { BridgeError } from '../bridgeError';
import { backoffDelay, type ReconnectOptions } from './backoff';
import type { GuardedWaitFor } from './guardedWaitFor';
import type { ConnectionSnapshot } from './state';

/** @internal How a connection reaches its transport: a fresh one per attempt, and whether to retry. */
export interface TransportSource {
  /** A new transport; `lost` is for its fetch to report a connection that is gone. */
  create(lost: (error: unknown) => void): Promise<unknown>;
  /** Streamable HTTP reconnects; a stdio child that exited does not. */
  reconnects?: boolean;
  /** OAuth: the callback's parameters (or the code) once the provider sent the person away. */
  authorizationCallback?: () => Promise<string | { get(name: string): string | null }>;
}

/** The v2 client, as a connection's life uses it. */
export interface LifeClient {
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
  ping(options?: { timeout?: number }): Promise<unknown>;
  onerror?: ((error: unknown) => void) | undefined;
}

/** A transport as a connection uses it: the SDK's teardown hook and, for OAuth, `finishAuth`. */
interface Transport {
  onclose?: () => void;
  finishAuth(callback: unknown): Promise<void>;
}

/** What a connection's life is made of. */
export interface LifeParts {
  client: LifeClient;
  transports: TransportSource;
  /** The host's waitFor behind the connection. */
  questions: GuardedWaitFor;
  /** Sets the connection's state; false when it did not change it (closed stays closed). */
  setStatus(
    status: ConnectionSnapshot['status'],
    details?: Omit<ConnectionSnapshot, 'status'>,
  ): boolean;
  connected(): boolean;
  /** How a lost connection is retried (`maxAttempts: 0`: it is not). */
  retry: ReconnectOptions;
  /** Detach the bridge (the connection closed for good). */
  detach(): void;
}

const isUnauthorized = (error: unknown): boolean =>
  error instanceof Error && error.constructor.name === 'UnauthorizedError';

/** @internal One connection's life: open, lost, recovered, closed. */
export class ConnectionLife {
  readonly #parts: LifeParts;
  readonly #maxAttempts: number;
  /** Set while the bridge swaps or closes the transport itself (no loss to notice then). */
  #swapping = false;
  /** Cancels the wait before the next attempt (close() while reconnecting: it never runs). */
  #cancelWait = () => {};
  #transport: Transport | undefined;

  constructor(parts: LifeParts) {
    this.#parts = parts;
    this.#maxAttempts = parts.retry.maxAttempts ?? 5;
  }

  /** Open the first transport (OAuth: finish the authorization once, then open again). */
  async open(): Promise<void> {
    const { transports } = this.#parts;
    try {
      await this.#attach();
    } catch (error) {
      if (!isUnauthorized(error) || !transports.authorizationCallback) throw error;
      await this.finishAuth(await transports.authorizationCallback());
      await this.#attach();
    }
  }

  /** OAuth, mid-session: finish an authorization on the current transport. */
  readonly finishAuth = (callback: unknown): Promise<void> => this.#transport!.finishAuth(callback);

  /** An error the client reports is a lost connection when a ping confirms it (an HTTP stream cut). */
  watchErrors(): void {
    const { client } = this.#parts;
    const onerror = client.onerror;
    client.onerror = (error) => {
      onerror?.call(client, error);
      if (this.#maxAttempts && !this.#swapping && this.#parts.connected())
        client.ping({ timeout: 10_000 }).catch(() => this.#lose(error));
    };
  }

  /** Close for good: open questions end, the bridge detaches, the client closes. */
  readonly close = async (): Promise<void> => {
    const { questions, setStatus, detach } = this.#parts;
    this.#cancelWait();
    questions.lose(new BridgeError('aborted', 'Closed'));
    setStatus('closed');
    detach();
    this.#swapping = true;
    await this.#closeClient();
  };

  /** What only the network sees (a failed fetch, an unknown session) counts only when reconnecting. */
  readonly #lost = (error: unknown): void => {
    if (this.#maxAttempts) this.#lose(error);
  };

  /** The connection is gone: its questions end, and it reconnects (or closes, without retries). */
  #lose(error: unknown): void {
    if (this.#swapping || !this.#parts.connected()) return;
    this.#parts.questions.lose(error);
    // Without reconnection the SDK ends the calls in flight as it always has.
    if (this.#maxAttempts) void this.#recover(error);
    else this.#parts.setStatus('closed', { error });
  }

  /** A fresh transport, connected; one that closes by itself is a lost connection. */
  async #attach(): Promise<void> {
    const transport = (await this.#parts.transports.create(this.#lost)) as Transport;
    this.#transport = transport;
    await this.#parts.client.connect(transport);
    // The SDK's own teardown, which would end the open questions as merely cancelled, waits one
    // turn so they end as connection_lost first (not when the bridge swaps or closes it itself).
    const teardown = transport.onclose;
    transport.onclose = () => {
      if (this.#swapping) return teardown?.();
      this.#lose(new BridgeError('client_error', 'Transport closed'));
      schedule(0, () => teardown?.());
    };
  }

  /** Reconnect with backoff, up to the attempts allowed; then close for good. */
  async #recover(error: unknown): Promise<void> {
    const { questions, setStatus, retry } = this.#parts;
    for (let attempt = 1; attempt <= this.#maxAttempts; attempt++) {
      if (!setStatus('reconnecting', { attempt, error })) return;
      await new Promise<void>(
        (resolve) => (this.#cancelWait = schedule(backoffDelay(attempt, retry), resolve)),
      );
      // Closing the old transport ends the SDK requests that were in flight on it.
      this.#swapping = true;
      try {
        await this.#closeClient();
        await this.open();
        questions.restore();
        setStatus('connected');
        return;
      } catch (next) {
        error = next;
      } finally {
        this.#swapping = false;
      }
    }
    setStatus('closed', { error });
    await this.close();
  }

  #closeClient(): Promise<void> {
    return this.#parts.client.close().catch(() => undefined);
  }
}
