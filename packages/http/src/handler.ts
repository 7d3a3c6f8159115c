import type { Inbox } from '@waitfor/core';
import { recentLimits } from '@waitfor/runtime';
import { answerRoute } from './answerRoute';
import type { Feed, FeedLimits } from './feed';
import { createFeed } from './feed';
import { eventsRoute } from './eventsRoute';
import { withReadDeadline } from './readBody';
import { corsFor, json, refuse } from './responses';
import { eventsPath, requestsPath } from './wire';

/** An inbox the handler answers through: any Inbox, whose `submit` gives the final word. */
export type AnswerableInbox = Inbox;

/** Options of createInboxHandler. */
export interface InboxHandlerOptions {
  /**
   * The inbox of one scope. Called on every request: return the same inbox for the same scope
   * (cache it), e.g. `(scope) => store.inbox(scope)` memoised per scope, or one in-memory inbox.
   */
  inboxFor(scope: string): AnswerableInbox | Promise<AnswerableInbox>;
  /**
   * Who is asking: the scope (tenant or user key) whose questions this caller sees and answers, or
   * null for an unauthenticated caller (401). Read a session cookie or an Authorization header.
   */
  authorize(request: Request): string | null | undefined | Promise<string | null | undefined>;
  /** The origins (`https://app.example`) whose pages may answer; every other Origin is refused. */
  allowedOrigins: readonly string[];
  /** The largest answer body read, in bytes (default 64 KiB); a larger one is refused with 413. */
  maxBodyBytes?: number;
  /**
   * Milliseconds an answer's body may take to arrive once its route reads it (default 10 s;
   * Infinity: no deadline). A body still unfinished then (a client sending slowly, or never ending
   * it) is refused with 408 and nothing is answered, so it holds no connection until the server's
   * own request timeout (Node's is 300 s).
   */
  bodyTimeoutMs?: number;
  /** The path the handler is mounted under, e.g. `/api/inbox` (default: the root). */
  basePath?: string;
  /** Open event streams allowed per scope (default 16); one more is refused with 429. */
  maxStreamsPerScope?: number;
  /** Milliseconds between heartbeats on a quiet event stream (default 15 s). */
  heartbeatMs?: number;
  /** How long a scope's recent changes are kept after its last stream closed, to resume (default 60 s). */
  resumeWindowMs?: number;
  /** How many recent changes per scope a resuming client can be sent (default 256; older: a snapshot). */
  maxLoggedChanges?: number;
  /** How many bytes one event stream may fall behind before it is closed to resume later (default 1 MiB). */
  maxQueuedBytes?: number;
}

/** A Web-standard handler; `closeStreams` ends every open event stream (clients reconnect and resume). */
export interface InboxHandler {
  (request: Request): Promise<Response>;
  /** Ends every open event stream, e.g. before a restart; clients reconnect and resume by themselves. */
  closeStreams(): void;
}

/** What a route needs of the handler. */
export interface RouteContext {
  options: InboxHandlerOptions;
  scope: string;
  cors: Record<string, string>;
  feedOf(scope: string): Promise<Feed>;
  maxBodyBytes: number;
  allowedOrigins: ReadonlySet<string>;
  limits: FeedLimits & { maxStreamsPerScope: number; maxQueuedBytes: number };
}

/**
 * Creates the HTTP handler of a person's inbox: `GET <base>/requests` lists the open questions,
 * `GET <base>/events` streams changes (Server-Sent Events, resumable with `Last-Event-ID`), `POST
 * <base>/requests/<id>/answer` answers one (JSON from an allowed Origin). Every caller sees only
 * the scope `authorize` gives them: another scope's question does not exist for them (404).
 */
export function createInboxHandler(options: InboxHandlerOptions): InboxHandler {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const allowedOrigins = new Set(options.allowedOrigins);
  const limits = {
    heartbeatMs: options.heartbeatMs ?? 15_000,
    resumeWindowMs: options.resumeWindowMs ?? 60_000,
    maxLoggedChanges: options.maxLoggedChanges ?? 256,
    maxEndedIds: recentLimits.maxEntries,
    maxEndedAgeMs: recentLimits.maxAgeMs,
    maxStreamsPerScope: options.maxStreamsPerScope ?? 16,
    maxQueuedBytes: options.maxQueuedBytes ?? 1024 * 1024,
  };
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  // A Map: a scope is any string the host chooses, never a key of an object's prototype.
  const feeds = new Map<string, Promise<Feed>>();

  const feedOf = (scope: string): Promise<Feed> => {
    let feed = feeds.get(scope);
    if (!feed) {
      feed = Promise.resolve(options.inboxFor(scope)).then((inbox) =>
        createFeed(inbox, limits, () => feeds.delete(scope)),
      );
      // A failed inboxFor is not remembered: the next request tries again.
      feed.catch(() => feeds.delete(scope));
      feeds.set(scope, feed);
    }
    return feed;
  };

  const handle = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const origin = request.headers.get('origin');
    const cors = corsFor(origin, allowedOrigins);
    if (!url.pathname.startsWith(`${basePath}/`)) return refuse(404, 'not_found', 'No such path.');
    const route = routeOf(url.pathname.slice(basePath.length));
    if (!route) return refuse(404, 'not_found', 'No such path.', {}, cors);
    if (request.method === 'OPTIONS') return preflight(route.method, cors);
    if (request.method !== route.method)
      return new Response(null, { status: 405, headers: { allow: route.method, ...cors } });
    // A read with a foreign Origin is refused too: a page elsewhere learns nothing, not even 401.
    if (origin !== null && !allowedOrigins.has(origin))
      return refuse(403, 'refused', 'This origin may not use the inbox.');
    const scope = await options.authorize(request);
    if (typeof scope !== 'string')
      return refuse(401, 'unauthorized', 'Sign in to see your questions.', {}, cors);
    const context: RouteContext = {
      options,
      scope,
      cors,
      feedOf,
      maxBodyBytes,
      allowedOrigins,
      limits,
    };
    if (route.name === 'list')
      return json(200, { requests: (await feedOf(scope)).inbox.getSnapshot() }, cors);
    if (route.name === 'events') return eventsRoute(request, context);
    return answerInTime(request, route.id, context, bodyTimeoutMs);
  };

  const handler = (async (request: Request): Promise<Response> => {
    try {
      return await handle(request);
    } catch {
      // Never the error itself: it may name another scope, a database or a file.
      return refuse(500, 'unavailable', 'The inbox failed; try again.');
    }
  }) as InboxHandler;
  handler.closeStreams = () => {
    for (const feed of feeds.values())
      void feed.then(
        (ready) => {
          for (const stream of [...ready.streams]) stream.close();
        },
        () => {},
      );
  };
  return handler;
}

type Route =
  | { name: 'list'; method: 'GET' }
  | { name: 'events'; method: 'GET' }
  | { name: 'answer'; method: 'POST'; id: string };

/** The route of a path below the base path; undefined for any other path. */
function routeOf(path: string): Route | undefined {
  if (path === requestsPath) return { name: 'list', method: 'GET' };
  if (path === eventsPath) return { name: 'events', method: 'GET' };
  const match = /^\/requests\/([^/]+)\/answer$/.exec(path);
  if (!match) return undefined;
  try {
    return { name: 'answer', method: 'POST', id: decodeURIComponent(match[1]!) };
  } catch {
    return undefined;
  }
}

/** The answer route with a deadline on its body: 408 once `ms` pass before the body ended. */
async function answerInTime(
  request: Request,
  id: string,
  context: RouteContext,
  ms: number,
): Promise<Response> {
  const deadline = withReadDeadline(request, ms);
  const tooSlow = () =>
    refuse(408, 'unavailable', `The answer did not arrive within ${ms} ms.`, {}, context.cors);
  try {
    return await Promise.race([
      // Past the deadline the route fails reading the body: that failure is the 408 too.
      answerRoute(deadline.request, id, context).catch((error: unknown) => {
        if (deadline.timedOut) return tooSlow();
        throw error;
      }),
      deadline.expired.then(tooSlow),
    ]);
  } finally {
    deadline.stop();
  }
}

/** Answers a CORS preflight: allowed origins only (others get no CORS headers, so the browser stops). */
function preflight(method: string, cors: Record<string, string>): Response {
  const allowed = Object.keys(cors).length > 0;
  return new Response(null, {
    status: 204,
    headers: allowed
      ? {
          ...cors,
          'access-control-allow-methods': method,
          'access-control-allow-headers': 'authorization, content-type, last-event-id',
          'access-control-max-age': '600',
        }
      : {},
  });
}
