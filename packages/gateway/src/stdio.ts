/**
 * The gateway over stdio: the SDK's `serveStdio` (it decides the host's era from the opening
 * message and pins one host-facing server for the connection), with the gateway's own transport in
 * front of it so a 2026-07-28 host's `subscriptions/listen` naming `resourceSubscriptions` keeps
 * its promise, as over HTTP (the same ResourceListens bookkeeping):
 *
 * - before the SDK acknowledges such a listen, the gateway subscribes upstream for its URIs (a
 *   2025 server: `resources/subscribe` on this host's own upstream session, whose updates reach
 *   this host's server; a 2026-07-28 server: a listen stream per URI, whose updates the gateway
 *   hears and hands this host's server) and narrows the filter to the URIs the upstream took;
 * - refused in band past the bounds, as over HTTP (the error answers the listen's id);
 * - the upstream subscriptions end with the listen: the host's `notifications/cancelled` of it, the
 *   SDK's answer to it (an error, or its graceful end when the connection closes), the connection;
 * - a subscription the upstream loses ends the host's listen: its graceful result is sent (after
 *   the acknowledgement, never before), the SDK is told the listen is cancelled (so it stops
 *   routing to it and frees its place), and nothing stamped for it goes out any more.
 * A 2025 host's connection is untouched: its listens (none in its revision) reach the SDK as sent.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import {
  SUBSCRIPTION_ID_META_KEY,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Server,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import {
  serveStdio as serveSdkStdio,
  StdioServerTransport,
} from '@modelcontextprotocol/server/stdio';
import { isRecord } from '@waitfor/runtime';
import type { Gateway } from './gateway';
import { listenEnd } from './listen';
import { namesResources, ResourceListens, type ListenStream } from './resourceListens';

/** Options of serveStdio. */
export interface ServeStdioOptions {
  /** The wire (default: this process's stdin and stdout). */
  transport?: Transport;
  /** Errors off the wire (default: none reported). */
  onerror?: (error: Error) => void;
  /** URIs one listen's `resourceSubscriptions` may name (default 32); past it -32603. */
  maxResourcesPerListen?: number;
  /** Distinct URIs subscribed upstream for this host's listens at once (default 64); past it -32603. */
  maxResourceSubscriptions?: number;
  /** Characters a subscribed URI may have (default 2048); past it -32602. */
  maxResourceUriLength?: number;
}

/** A running stdio connection of the gateway. */
export interface StdioHandle {
  close(): Promise<void>;
}

type RequestId = string | number;

const idOf = (message: Record<string, unknown>): RequestId | undefined => {
  const id = message['id'];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
};

/** The subscription a notification is stamped for (the SDK's `_meta` key), if any. */
const stampedFor = (message: Record<string, unknown>): unknown => {
  const params = isRecord(message['params']) ? message['params'] : {};
  const meta = isRecord(params['_meta']) ? params['_meta'] : {};
  return meta[SUBSCRIPTION_ID_META_KEY];
};

/** One listen naming resources on the wire, from its request until its end. */
class StdioListen implements ListenStream {
  acknowledged = false;
  ended = false;
  #closed = false;
  readonly #listeners: Array<() => void> = [];

  constructor(
    readonly id: RequestId,
    private readonly wire: ListenWire,
  ) {}

  refuse(code: number, message: string): void {
    this.wire.write({ jsonrpc: '2.0', id: this.id, error: { code, message } } as JSONRPCMessage);
    this.wire.forget(this);
  }

  onClose(listener: () => void): void {
    this.#listeners.push(listener);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    // Before its acknowledgement the SDK may not hold it yet: finished once the ack went out.
    if (this.acknowledged) this.finish();
    this.closed();
  }

  /** The SDK stops routing to it and frees its place; the host gets the graceful end. */
  finish(): void {
    this.wire.deliver({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: this.id, reason: 'the upstream ended the subscription' },
    });
    this.wire.write(listenEnd(this.id) as JSONRPCMessage);
    this.wire.forget(this);
  }

  closed(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#listeners.splice(0)) listener();
  }
}

/** The transport serveStdio is given: the real wire, with the listens naming resources watched. */
class ListenWire implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  readonly #listens = new Map<RequestId, StdioListen>();
  /** The id of the gateway's own server/discover, and its answer's wait (see `open`). */
  readonly #probeId = `waitfor-gateway/${randomUUID()}`;
  #opened: Promise<void> | undefined;
  #answered = () => {};

  constructor(
    private readonly inner: Transport,
    private readonly resources: ResourceListens,
    /** Whether the SDK made this connection's server yet. */
    private readonly hasServer: () => boolean,
  ) {}

  setProtocolVersion = (version: string): void => this.inner.setProtocolVersion?.(version);

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      for (const listen of [...this.#listens.values()]) this.forget(listen);
      this.onclose?.();
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const record = message as unknown as Record<string, unknown>;
    // A response answers the host's request of its id; a request of the SDK's own has its own ids.
    const response = 'id' in record && !('method' in record);
    if (response && record['id'] === this.#probeId) return Promise.resolve(this.#answered());
    const listen = this.listen(response ? record['id'] : stampedFor(record));
    if (listen === undefined) return this.inner.send(message, options);
    if (response) {
      // The SDK answered the listen (refused it, or ended it as the connection closes).
      this.forget(listen);
      return this.inner.send(message, options);
    }
    if (listen.ended && record['method'] !== 'notifications/subscriptions/acknowledged')
      return Promise.resolve();
    listen.acknowledged ||= record['method'] === 'notifications/subscriptions/acknowledged';
    const sent = this.inner.send(message, options);
    if (listen.ended) listen.finish();
    return sent;
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Write to the host directly (nothing of the SDK's to watch). */
  write(message: JSONRPCMessage): void {
    this.inner.send(message).catch((error: unknown) => this.report(error));
  }

  /** Hand the SDK a message as if the host had sent it. */
  deliver(message: Record<string, unknown>): void {
    this.onmessage?.(message as JSONRPCMessage);
  }

  forget(listen: StdioListen): void {
    if (this.#listens.get(listen.id) === listen) this.#listens.delete(listen.id);
    listen.closed();
  }

  /**
   * Have the SDK make this connection's server before a listen is taken. The v2 client probes the
   * revision on a sibling process, so a listen may be the connection's first message, and the
   * server it needs (a 2025 upstream: its host's session) is made only for a first message: a
   * server/discover of the gateway's own, with the listen's envelope, whose answer the host never
   * sees. The SDK then opens the connection as for a host's own probe.
   */
  private open(params: unknown): Promise<void> {
    if (this.hasServer()) return Promise.resolve();
    this.#opened ??= new Promise<void>((resolve) => {
      this.#answered = resolve;
      const meta = isRecord(params) ? params['_meta'] : undefined;
      this.deliver({
        jsonrpc: '2.0',
        id: this.#probeId,
        method: 'server/discover',
        params: meta === undefined ? {} : { _meta: meta },
      });
    });
    return this.#opened;
  }

  /** The open listen of `id`, if any. */
  private listen(id: unknown): StdioListen | undefined {
    return typeof id === 'string' || typeof id === 'number' ? this.#listens.get(id) : undefined;
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const record = message as unknown as Record<string, unknown>;
    const id = 'method' in record ? idOf(record) : undefined;
    if (record['method'] === 'notifications/cancelled') {
      const params = isRecord(record['params']) ? record['params'] : {};
      const cancelled = this.listen(params['requestId']);
      if (cancelled !== undefined) this.forget(cancelled);
    }
    // A listen whose id is still open is the host's mistake: the SDK answers it as it would.
    if (id === undefined || !namesResources(record) || this.#listens.has(id))
      return this.onmessage?.(message, extra);
    const listen = new StdioListen(id, this);
    this.#listens.set(id, listen);
    this.open(record['params'])
      .then(() => this.resources.take(listen, record))
      .then((served) => {
        if (served !== undefined) this.onmessage?.(served as JSONRPCMessage, extra);
      })
      .catch((error: unknown) => this.report(error));
  }

  private report(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Serve `gateway` to one host over stdio (either era); see the module header for its listens. */
export function serveStdio(gateway: Gateway, options: ServeStdioOptions = {}): StdioHandle {
  const upstream = gateway.connection;
  let server: Server | undefined;
  let era: 'legacy' | 'modern' | undefined;
  const resources = new ResourceListens({
    subscribe: (uri, lost) =>
      // A 2025 server's updates come on this host's session: none when the SDK refused to open the
      // connection for the listen (its envelope), which it then refuses as well.
      upstream.era === 'legacy' && server === undefined
        ? Promise.reject(new Error('no host session yet'))
        : gateway.subscribeUpstream(uri, lost, server),
    offered: () =>
      era !== 'legacy' &&
      (upstream.client as Client).getServerCapabilities()?.resources?.subscribe === true,
    maxPerListen: options.maxResourcesPerListen ?? 32,
    maxOpen: options.maxResourceSubscriptions ?? 64,
    maxUriLength: options.maxResourceUriLength ?? 2048,
  });
  // A 2026-07-28 server's updates come on the one connection all hosts share.
  const stopHearing =
    upstream.era === 'modern'
      ? gateway.onUpstreamChange((method, params) => {
          if (method !== 'notifications/resources/updated' || era !== 'modern') return;
          server?.notification({ method, params } as never).catch(() => undefined);
        })
      : undefined;
  const wire = new ListenWire(
    options.transport ?? new StdioServerTransport(),
    resources,
    () => server !== undefined,
  );
  const handle = serveSdkStdio(
    (context) => {
      era = context.era;
      server = gateway.createServer({ resourceUpdates: context.era === 'modern' });
      return server;
    },
    { transport: wire, ...(options.onerror === undefined ? {} : { onerror: options.onerror }) },
  );
  return {
    close: async () => {
      stopHearing?.();
      await handle.close();
      await resources.close();
    },
  };
}
