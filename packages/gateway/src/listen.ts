/**
 * The upstream's list changes toward 2026-07-28 hosts, which hear them only on a
 * `subscriptions/listen` stream they opened.
 *
 * - Upstream side: a 2026-07-28 upstream sends list changes only on a listen stream of its client,
 *   so the gateway opens one (for the kinds the upstream declares `listChanged` for) and opens it
 *   again after a reconnect; what reaches its client is relayed as a 2025 upstream's unsolicited
 *   notifications are (gateway.ts), to hosts with a connection and to `UpstreamChanges`.
 * - Host side: a 2026-07-28 host over HTTP is served per request, with no connection to notify:
 *   the changes are published onto the HTTP endpoint's listen bus, and the SDK's router gives each
 *   stream the kinds its filter asked for and the host-facing capabilities announce.
 * - The capabilities a host sees keep `listChanged` only where it is delivered: for a 2026-07-28
 *   upstream, the kinds its listen acknowledged.
 * Bounded: listen streams per endpoint (the SDK's `maxSubscriptions`) and per host (`ListenLimits`);
 * a stream whose host went away is torn down by the SDK (its request's signal), and the count
 * here drops with its response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Client } from '@modelcontextprotocol/client';
import {
  CLIENT_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  type ServerCapabilities,
  type ServerEvent,
} from '@modelcontextprotocol/server';
import type { Connection } from '@waitfor/mcp-bridge';
import { isRecord } from '@waitfor/runtime';
import type { ListenStream } from './resourceListens';

type ChangeListener = (method: string, params: Record<string, unknown>) => void;

/** The upstream's list changes and resource updates no host-facing server receives itself. */
export class UpstreamChanges {
  readonly #listeners = new Set<ChangeListener>();

  /** Hear every change published from now on; returns the unsubscribe. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  publish(method: string, params: Record<string, unknown>): void {
    for (const listener of this.#listeners) listener(method, params);
  }
}

/** The listen bus event of an upstream notification (undefined: not a change a listen carries). */
export function toServerEvent(
  method: string,
  params: Record<string, unknown>,
): ServerEvent | undefined {
  switch (method) {
    case 'notifications/tools/list_changed':
      return { kind: 'tools_list_changed' };
    case 'notifications/prompts/list_changed':
      return { kind: 'prompts_list_changed' };
    case 'notifications/resources/list_changed':
      return { kind: 'resources_list_changed' };
    case 'notifications/resources/updated':
      return typeof params['uri'] === 'string'
        ? { kind: 'resource_updated', uri: params['uri'] }
        : undefined;
    default:
      return undefined;
  }
}

type ListKind = 'tools' | 'prompts' | 'resources';
const listKinds: readonly ListKind[] = ['tools', 'prompts', 'resources'];
const filterKey = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const;

type Subscription = Awaited<ReturnType<Client['listen']>>;

/**
 * The gateway's own listen stream on a 2026-07-28 upstream (none on a 2025 one, which sends its
 * list changes unasked): opened at start, opened again once a lost connection is back.
 */
export class UpstreamListen {
  #subscription: Subscription | undefined;
  #honored: Partial<Record<ListKind, boolean>> = {};
  #closed = false;
  #offState: (() => void) | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly log: (line: string) => void,
  ) {}

  /** Open the stream (nothing to open on a 2025 upstream, or one that declares no listChanged). */
  async open(): Promise<void> {
    if (this.connection.era !== 'modern') return;
    const client = this.connection.client as Client;
    const capabilities = client.getServerCapabilities() ?? {};
    const kinds = listKinds.filter((kind) => capabilities[kind]?.listChanged === true);
    if (kinds.length === 0) return;
    const filter = Object.fromEntries(kinds.map((kind) => [filterKey[kind], true]));
    await this.listen(client, filter);
    // After a reconnect the old stream is gone ('remote'): listen again on the restored client.
    let wasConnected = true;
    this.#offState = this.connection.state.subscribe(() => {
      const connected = this.connection.state.getSnapshot().status === 'connected';
      if (connected && !wasConnected) void this.listen(client, filter);
      wasConnected = connected;
    });
  }

  private async listen(client: Client, filter: Record<string, boolean>): Promise<void> {
    if (this.#closed) return;
    try {
      const subscription = await client.listen(filter);
      this.#subscription = subscription;
      const honored = subscription.honoredFilter as Record<string, unknown>;
      this.#honored = Object.fromEntries(
        listKinds.map((kind) => [kind, honored[filterKey[kind]] === true]),
      );
      if (this.#closed) await subscription.close();
    } catch (error) {
      // The upstream refused the stream: its list changes are not relayed, and not announced.
      this.#honored = {};
      this.log(
        `the upstream refused subscriptions/listen: its list changes are not relayed (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }

  /** The upstream's capabilities with listChanged kept only where this gateway delivers it. */
  narrow(capabilities: ServerCapabilities): ServerCapabilities {
    if (this.connection.era !== 'modern') return capabilities;
    const narrowed: ServerCapabilities = { ...capabilities };
    for (const kind of listKinds) {
      const capability = capabilities[kind];
      if (capability === undefined || this.#honored[kind] === true) continue;
      const { listChanged: _dropped, ...rest } = capability as { listChanged?: boolean };
      (narrowed as Record<string, unknown>)[kind] = rest;
    }
    return narrowed;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#offState?.();
    await this.#subscription?.close().catch(() => undefined);
  }
}

/**
 * Call `lost` once, when `connection` stops being connected: a reconnect opens a new session (a
 * 2025 server forgot the old one's subscriptions) and new streams (the old ones are gone). Returns
 * the stop.
 */
function whenDisconnected(connection: Connection, lost: () => void): () => void {
  let stop = () => {};
  stop = connection.state.subscribe(() => {
    if (connection.state.getSnapshot().status === 'connected') return;
    stop();
    lost();
  });
  return stop;
}

/**
 * A listen stream of one resource on a 2026-07-28 upstream; its updates reach the client's
 * handlers (gateway.ts relays them). Resolves to its close; rejects when the upstream did not
 * acknowledge the URI. `lost` is called when the stream ends other than by that close.
 */
async function listenUpstream(
  connection: Connection,
  uri: string,
  lost: () => void,
): Promise<() => Promise<void>> {
  const client = connection.client as Client;
  const subscription = await client.listen({ resourceSubscriptions: [uri] });
  if (subscription.honoredFilter.resourceSubscriptions?.includes(uri) !== true) {
    await subscription.close();
    throw new Error('the upstream did not acknowledge it');
  }
  let ended = false;
  let stop = () => {};
  const end = (why: 'closed' | 'lost') => {
    if (ended) return;
    ended = true;
    stop();
    if (why === 'lost') lost();
  };
  stop = whenDisconnected(connection, () => end('lost'));
  void subscription.closed.then(() => end('lost'));
  return () => {
    end('closed');
    return subscription.close();
  };
}

/**
 * `resources/subscribe` on a 2025 upstream session; resolves to its unsubscribe. `lost` is called
 * when that session is gone (its subscription with it).
 */
async function subscribeSession(
  session: Promise<Connection>,
  uri: string,
  lost: () => void,
): Promise<() => Promise<void>> {
  const connection = await session;
  const client = connection.client as Client;
  await client.subscribeResource({ uri });
  const stop = whenDisconnected(connection, lost);
  return async () => {
    stop();
    await client.unsubscribeResource({ uri });
  };
}

/**
 * Subscribe upstream for one resource (Gateway.subscribeUpstream): a listen stream on a 2026-07-28
 * upstream, `resources/subscribe` on `session` (the one its updates come on) of a 2025 one. A
 * refusal, of the subscribe or of its end, is logged and rethrown. `lost` is called (and logged)
 * when the upstream ends the subscription itself: its stream ended, its session was replaced.
 */
export async function subscribeResource(
  connection: Connection,
  session: () => Promise<Connection>,
  uri: string,
  log: (line: string) => void,
  lost: () => void = () => {},
): Promise<() => Promise<void>> {
  const said = (what: string) => (error: unknown) => {
    log(`${what} ${uri}: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  };
  const gone = () => {
    log(`the upstream ended the subscription to ${uri}: the listens that named it are ended`);
    lost();
  };
  const unsubscribe = await (
    connection.era === 'modern'
      ? listenUpstream(connection, uri, gone)
      : subscribeSession(session(), uri, gone)
  ).catch(said('the upstream refused a subscription (its updates are not relayed) to'));
  return () => unsubscribe().catch(said('could not end the upstream subscription to'));
}

/** Refuse a listen in band, before its acknowledgement (as the SDK refuses past its own bound). */
export function refuseListen(
  response: ServerResponse,
  body: Record<string, unknown>,
  code: number,
  message: string,
): void {
  response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: body['id'] ?? null, error: { code, message } }));
}

/** The graceful end of listen `id` (the spec's empty subscriptions/listen result). */
export function listenEnd(id: unknown): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: id } },
  };
}

/**
 * A listen served over HTTP, as ResourceListens sees it: refused in band, closed with its response,
 * ended by its graceful result on the stream (then the response is cut: the SDK's stream would
 * otherwise go on), or by cutting the response only when nothing was written yet.
 */
export function responseStream(response: ServerResponse, body: unknown): ListenStream {
  const id = isRecord(body) ? body['id'] : undefined;
  return {
    refuse: (code, message) => refuseListen(response, isRecord(body) ? body : {}, code, message),
    onClose: (listener) => void response.once('close', listener),
    end: () => {
      if (!response.headersSent || response.writableEnded) return void response.destroy();
      const frame = `event: message\ndata: ${JSON.stringify(listenEnd(id))}\n\n`;
      response.write(frame, () => response.destroy());
    },
  };
}

/** Options of the per-host bound on listen streams. */
export interface ListenLimitsOptions {
  /** Listen streams one host may hold open at once on one endpoint. */
  maxPerHost: number;
  /** Called for every listen admitted (before it is served). */
  onListen?: () => void;
}

/** The name a listen request's host gives (its `clientInfo.name`), if any. */
function clientName(body: Record<string, unknown>): string {
  const params = isRecord(body['params']) ? body['params'] : {};
  const meta = isRecord(params['_meta']) ? params['_meta'] : {};
  const info = meta[CLIENT_INFO_META_KEY];
  return isRecord(info) && typeof info['name'] === 'string' ? info['name'].slice(0, 256) : '';
}

/**
 * Listen streams per host: a host is its remote address and the client name it gives (hosts on one
 * machine share the address). A name is the host's own word, so the endpoint bound (the SDK's)
 * still holds against one that changes it.
 */
export class ListenLimits {
  readonly #open = new Map<string, number>();

  constructor(private readonly options: ListenLimitsOptions) {}

  /**
   * Whether `body` may be served: true for anything but a `subscriptions/listen` past the host's
   * bound, which is refused in band (-32603 before the acknowledgement, as the SDK's own bound is).
   */
  admit(request: IncomingMessage, response: ServerResponse, body: unknown): boolean {
    if (!isRecord(body) || body['method'] !== 'subscriptions/listen') return true;
    const key = `${request.socket.remoteAddress ?? ''} ${clientName(body)}`;
    const open = this.#open.get(key) ?? 0;
    if (open >= this.options.maxPerHost) {
      refuseListen(response, body, -32603, 'Subscription limit reached for this host');
      return false;
    }
    this.#open.set(key, open + 1);
    this.options.onListen?.();
    response.once('close', () => {
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left === 0) this.#open.delete(key);
      else this.#open.set(key, left);
    });
    return true;
  }
}
