/**
 * Resource updates toward 2026-07-28 hosts over HTTP: a listen whose filter names
 * `resourceSubscriptions` makes the gateway subscribe upstream for those URIs before the SDK
 * acknowledges it (gateway.ts `subscribeUpstream`: `resources/subscribe` on the session a 2025
 * server's updates come on, a listen stream of that URI on a 2026-07-28 one).
 *
 * - The acknowledgement says only what is delivered: the filter the SDK serves is narrowed to the
 *   URIs the upstream took; one it refused is left out.
 * - One upstream subscription per URI, however many streams want it; it ends once the last stream
 *   that wanted it closes (its response's `close`). An unsubscribe and a new subscribe of the same
 *   URI run in that order.
 * Bounded, refused in band before the acknowledgement (as the SDK refuses past its own bound,
 * never capped): URIs per listen (`maxPerListen`, -32603), distinct URIs subscribed upstream per
 * endpoint (`maxOpen`, -32603), each URI's length (`maxUriLength`, -32602). The filter is read from
 * own keys only; anything else in it is left to the SDK's own validation.
 */
import type { ServerResponse } from 'node:http';
import { isRecord } from '@waitfor/runtime';
import { refuseListen } from './listen';

/** Subscribe upstream for one URI: resolves to its unsubscribe, rejects when refused. */
export type SubscribeUpstream = (uri: string) => Promise<() => Promise<void>>;

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
  async take(response: ServerResponse, body: unknown): Promise<unknown> {
    const listen = requested(body);
    if (listen === undefined || !this.options.offered()) return body;
    const { maxPerListen, maxOpen, maxUriLength } = this.options;
    // The count first: a listen naming 10 000 URIs is refused before any of them is looked at.
    if (listen.uris.length > maxPerListen)
      return refuseListen(
        response,
        listen.body,
        -32603,
        `Resource subscription limit reached (${maxPerListen} URIs per listen)`,
      );
    if (listen.uris.some((uri) => typeof uri !== 'string')) return body;
    const uris = [...new Set(listen.uris as string[])];
    if (uris.some((uri) => uri.length > maxUriLength))
      return refuseListen(
        response,
        listen.body,
        -32602,
        `Invalid params: a resource URI longer than ${maxUriLength} characters`,
      );
    const added = uris.filter((uri) => !this.#entries.has(uri)).length;
    if (this.#entries.size + added > maxOpen)
      return refuseListen(
        response,
        listen.body,
        -32603,
        `Resource subscription limit reached (${maxOpen} URIs on this endpoint)`,
      );
    const entries = uris.map((uri) => this.hold(uri));
    let gone = false;
    response.once('close', () => {
      gone = true;
      for (const entry of entries) this.release(entry);
    });
    const taken = await Promise.all(entries.map((entry) => entry.ready));
    if (gone) return undefined;
    const delivered = uris.filter((_, index) => taken[index] !== undefined);
    const { resourceSubscriptions: _asked, ...filter } = listen.filter;
    const notifications =
      delivered.length === 0 ? filter : { ...filter, resourceSubscriptions: delivered };
    return { ...listen.body, params: { ...listen.params, notifications } };
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
      ready: leaving
        .then(() => this.options.subscribe(uri))
        .catch(() => {
          // Refused (the gateway logged it): left out of this acknowledgement, asked again by the next.
          if (this.#entries.get(uri) === entry) this.#entries.delete(uri);
          return undefined;
        }),
    };
    this.#entries.set(uri, entry);
    return entry;
  }

  private release(entry: Entry): void {
    entry.holders -= 1;
    if (entry.holders > 0) return;
    if (this.#entries.get(entry.uri) === entry) this.#entries.delete(entry.uri);
    const leaving = entry.ready
      .then((unsubscribe) => unsubscribe?.())
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
