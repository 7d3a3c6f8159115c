/**
 * Resource updates toward 2026-07-28 hosts, over HTTP (http.ts) and over stdio (stdio.ts): a listen
 * whose filter names `resourceSubscriptions` makes the gateway subscribe upstream for those URIs
 * before the SDK acknowledges it (gateway.ts `subscribeUpstream`: `resources/subscribe` on the
 * session a 2025 server's updates come on, a listen stream of that URI on a 2026-07-28 one).
 *
 * - The acknowledgement says only what is delivered: the filter the SDK serves is narrowed to the
 *   URIs the upstream took; one it refused is left out.
 * - One upstream subscription per URI, however many streams want it; it ends once the last stream
 *   that wanted it closes. An unsubscribe and a new subscribe of the same URI run in that order.
 * - A subscription the upstream loses (its session replaced, its stream ended) ends every stream
 *   that was acknowledged for it: the host hears its listen end and may listen again (a new
 *   listen subscribes afresh); nothing is renewed behind its back, nor left silent.
 * Bounded, refused in band before the acknowledgement (as the SDK refuses past its own bound,
 * never capped): URIs per listen (`maxPerListen`, -32603), distinct URIs subscribed upstream at
 * once (`maxOpen`, -32603), each URI's length (`maxUriLength`, -32602). The filter is read from own
 * keys only; anything else in it is left to the SDK's own validation.
 */
import { isRecord } from '@waitfor/runtime';

/**
 * Subscribe upstream for one URI: resolves to its unsubscribe, rejects when refused; `lost` is
 * called when the upstream ends the subscription itself.
 */
export type SubscribeUpstream = (uri: string, lost: () => void) => Promise<() => Promise<void>>;

/** One host's listen stream, as the endpoint serving it (an HTTP response, a stdio request id). */
export interface ListenStream {
  /** Answer the listen with a JSON-RPC error, instead of its acknowledgement. */
  refuse(code: number, message: string): void;
  /** Call `listener` once the stream has closed, by the host or by `end`. */
  onClose(listener: () => void): void;
  /** End an acknowledged stream: an upstream subscription it was acknowledged for is lost. */
  end(): void;
}

/** Options of ResourceListens. */
export interface ResourceListensOptions {
  subscribe: SubscribeUpstream;
  /** Whether the upstream offers subscriptions now (else the SDK leaves them out, unasked). */
  offered: () => boolean;
  /** URIs one listen may name. */
  maxPerListen: number;
  /** Distinct URIs subscribed upstream at once, for every stream of the endpoint. */
  maxOpen: number;
  /** Characters a URI may have. */
  maxUriLength: number;
}

interface Entry {
  readonly uri: string;
  holders: number;
  /** The unsubscribe once subscribed; undefined: the upstream refused. */
  readonly ready: Promise<(() => Promise<void>) | undefined>;
  /** The streams acknowledged for it (ended when it is lost). */
  readonly streams: Set<ListenStream>;
  /** The upstream ended it: nothing to unsubscribe. */
  lost: boolean;
}

const own = (record: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** The listen filter of `body` and its resourceSubscriptions, if it names a list of them. */
function requested(body: unknown) {
  if (!isRecord(body) || own(body, 'method') !== 'subscriptions/listen') return undefined;
  const params = own(body, 'params');
  const filter = isRecord(params) ? own(params, 'notifications') : undefined;
  if (!isRecord(params) || !isRecord(filter)) return undefined;
  const uris = own(filter, 'resourceSubscriptions');
  return Array.isArray(uris) ? { body, params, filter, uris: uris as unknown[] } : undefined;
}

/** Whether `body` is a listen naming `resourceSubscriptions` (the listens ResourceListens takes). */
export const namesResources = (body: unknown): boolean => requested(body) !== undefined;

/** The upstream subscriptions behind 2026-07-28 hosts' listen streams on one endpoint. */
export class ResourceListens {
  readonly #entries = new Map<string, Entry>();
  /** Unsubscribes still running, by URI (a new subscribe of it waits for its end). */
  readonly #leaving = new Map<string, Promise<void>>();

  constructor(private readonly options: ResourceListensOptions) {}

  /** Distinct URIs subscribed upstream (or being subscribed) right now. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The body to serve for `body` — a listen's filter narrowed to the URIs subscribed upstream, any
   * other body as it is — or undefined when it was refused in band (or its host already left).
   */
  async take(stream: ListenStream, body: unknown): Promise<unknown> {
    const listen = requested(body);
    if (listen === undefined || !this.options.offered()) return body;
    const refusal = this.refusal(listen.uris);
    if (refusal !== undefined) return void stream.refuse(...refusal);
    if (listen.uris.some((uri) => typeof uri !== 'string')) return body;
    const uris = [...new Set(listen.uris as string[])];
    const entries = uris.map((uri) => this.hold(uri));
    let gone = false;
    stream.onClose(() => {
      gone = true;
      for (const entry of entries) {
        entry.streams.delete(stream);
        this.release(entry);
      }
    });
    const taken = await Promise.all(entries.map((entry) => entry.ready));
    if (gone) return undefined;
    // Lost before its acknowledgement: left out, as a refused one is.
    const kept = entries.filter((entry, index) => taken[index] !== undefined && !entry.lost);
    for (const entry of kept) entry.streams.add(stream);
    const { resourceSubscriptions: _asked, ...filter } = listen.filter;
    const notifications =
      kept.length === 0
        ? filter
        : { ...filter, resourceSubscriptions: kept.map((entry) => entry.uri) };
    return { ...listen.body, params: { ...listen.params, notifications } };
  }

  /** Why a listen naming `uris` is refused ([code, message]), if it is. */
  private refusal(uris: unknown[]): [number, string] | undefined {
    const { maxPerListen, maxOpen, maxUriLength } = this.options;
    // The count first: a listen naming 10 000 URIs is refused before any of them is looked at.
    if (uris.length > maxPerListen)
      return [-32603, `Resource subscription limit reached (${maxPerListen} URIs per listen)`];
    if (uris.some((uri) => typeof uri !== 'string')) return undefined;
    const distinct = [...new Set(uris as string[])];
    if (distinct.some((uri) => uri.length > maxUriLength))
      return [-32602, `Invalid params: a resource URI longer than ${maxUriLength} characters`];
    const added = distinct.filter((uri) => !this.#entries.has(uri)).length;
    if (this.#entries.size + added > maxOpen)
      return [-32603, `Resource subscription limit reached (${maxOpen} URIs on this endpoint)`];
    return undefined;
  }

  private hold(uri: string): Entry {
    const existing = this.#entries.get(uri);
    if (existing !== undefined) {
      existing.holders += 1;
      return existing;
    }
    const leaving = this.#leaving.get(uri) ?? Promise.resolve();
    const entry: Entry = {
      uri,
      holders: 1,
      streams: new Set(),
      lost: false,
      ready: leaving
        .then(() => this.options.subscribe(uri, () => this.lose(entry)))
        .catch(() => {
          // Refused (the gateway logged it): left out of this acknowledgement, asked again by the next.
          if (this.#entries.get(uri) === entry) this.#entries.delete(uri);
          return undefined;
        }),
    };
    this.#entries.set(uri, entry);
    return entry;
  }

  /** The upstream ended `entry`'s subscription: its streams end, the next listen subscribes anew. */
  private lose(entry: Entry): void {
    entry.lost = true;
    if (this.#entries.get(entry.uri) === entry) this.#entries.delete(entry.uri);
    for (const stream of [...entry.streams]) stream.end();
  }

  private release(entry: Entry): void {
    entry.holders -= 1;
    if (entry.holders > 0) return;
    if (this.#entries.get(entry.uri) === entry) this.#entries.delete(entry.uri);
    const leaving = entry.ready
      .then((unsubscribe) => (entry.lost ? undefined : unsubscribe?.()))
      // An upstream gone or refusing the unsubscribe has nothing more to end (the gateway logged it).
      .catch(() => undefined)
      .finally(() => {
        if (this.#leaving.get(entry.uri) === leaving) this.#leaving.delete(entry.uri);
      });
    this.#leaving.set(entry.uri, leaving);
  }

  /** End every upstream subscription (the endpoint closes). */
  async close(): Promise<void> {
    await Promise.all(this.#leaving.values());
  }
}
