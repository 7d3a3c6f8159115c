import type { HostedSession } from './hostedSession.js';

/** Where the page's small API lives, next to the inbox endpoint (`/api/inbox`). */
export const apiPath = '/api';

// A run or cancel body is a few names; anything larger is refused unread.
const maxBodyBytes = 4_096;

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });

const refuse = (status: number, error: string, message: string): Response =>
  json(status, { error, message });

// Open event streams at once (each page holds one); one more is refused with 429.
const maxStreams = 32;
// A quiet stream still sends a comment this often, so the page's idle timer sees it alive.
const heartbeatMs = 15_000;
// A stream whose page reads nothing falls this far behind, then it is closed (the page reconnects).
const maxQueuedBytes = 1024 * 1024;
const encoder = new TextEncoder();

/**
 * `GET /api/events`: Server-Sent Events, each a `state` event with `{ servers, calls, agent }` as
 * the GETs give them, sent on connecting and after every change (changes in one turn are sent once).
 */
function eventStream(session: HostedSession, streams: Set<() => void>): Response {
  if (streams.size >= maxStreams) return refuse(429, 'refused', 'Too many open streams.');
  let end = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let seq = 0;
        let queued: ReturnType<typeof setTimeout> | undefined;
        const push = (bytes: Uint8Array) => {
          if ((controller.desiredSize ?? 0) <= 0) return end();
          controller.enqueue(bytes);
        };
        const send = () => {
          queued = undefined;
          const state = {
            servers: session.servers(),
            calls: session.calls(),
            agent: session.agent(),
          };
          push(encoder.encode(`id: ${++seq}\nevent: state\ndata: ${JSON.stringify(state)}\n\n`));
        };
        const unsubscribe = session.subscribe(() => {
          queued ??= setTimeout(send, 0);
        });
        const beat = setInterval(() => push(encoder.encode(': heartbeat\n\n')), heartbeatMs);
        end = () => {
          if (!streams.delete(end)) return;
          unsubscribe();
          clearInterval(beat);
          clearTimeout(queued);
          try {
            controller.close();
          } catch {
            // Already cancelled by the page.
          }
        };
        streams.add(end);
        send();
      },
      cancel: () => end(),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: maxQueuedBytes }),
  );
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
}

/** Reads a JSON body with a cap (never buffered whole); undefined when over it. */
async function readCapped(request: Request): Promise<string | undefined> {
  const reader = request.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** A string property of a parsed body, own keys only. */
const field = (body: unknown, key: string): string | undefined => {
  if (typeof body !== 'object' || body === null || !Object.hasOwn(body, key)) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value.length <= 200 ? value : undefined;
};

/**
 * The page's API in the hosted mode, with the inbox endpoint's rules: a foreign `Origin` is refused
 * (403), a POST needs an allowed `Origin` and `application/json` (415), a body over 4 KiB is 413,
 * malformed JSON 400 with nothing started.
 *
 * - `GET /api/servers` → `{ servers }`: each server's connection state and tools (and this app's)
 * - `GET /api/calls` → `{ calls }`: every call, newest first, with its status, result and progress
 * - `GET /api/events`: both, as Server-Sent Events, after every change (what the page follows)
 * - `POST /api/calls` `{ server, tool }` → `201 { call }`
 * - `POST /api/calls/<id>/retry` `{}` → `{ call }` (404 when there is no such ended call)
 * - `POST /api/calls/<id>/cancel` `{}` → `{ cancelled: true }` (404 when not running)
 * - `GET /api/agent` → `{ agent }`: the agent's conversation
 * - `POST /api/agent` `{ text }` → `202 { sent: true }` (409 while the agent answers)
 * - `POST /api/agent/stop` `{}` → `{ stopped: true }` (404 when it is idle)
 *
 * `closeStreams` ends every event stream (the host stops; pages reconnect with backoff).
 */
export function createHostedApi(
  session: HostedSession,
  allowedOrigins: readonly string[],
): ((request: Request) => Promise<Response>) & { closeStreams(): void } {
  const allowed = new Set(allowedOrigins);
  const streams = new Set<() => void>();
  const handle = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname.slice(apiPath.length);
    const origin = request.headers.get('origin');
    if (origin !== null && !allowed.has(origin))
      return refuse(403, 'refused', 'This origin may not use the example host.');
    if (request.method === 'GET') {
      if (path === '/servers') return json(200, { servers: session.servers() });
      if (path === '/calls') return json(200, { calls: session.calls() });
      if (path === '/agent') return json(200, { agent: session.agent() });
      if (path === '/events') return eventStream(session, streams);
      return refuse(404, 'not_found', 'No such route.');
    }
    if (request.method !== 'POST') return refuse(405, 'refused', 'GET or POST only.');
    if (origin === null) return refuse(403, 'refused', 'A POST needs an allowed Origin.');
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type))
      return refuse(415, 'invalid_body', 'The body must be application/json.');
    const text = await readCapped(request);
    if (text === undefined) return refuse(413, 'invalid_body', 'The body is too large.');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return refuse(400, 'invalid_body', 'The body is not JSON.');
    }
    if (path === '/calls') {
      const server = field(body, 'server');
      const tool = field(body, 'tool');
      if (server === undefined || tool === undefined)
        return refuse(400, 'invalid_body', 'Name a server and a tool.');
      const call = session.run(server, tool);
      return call === undefined ? refuse(404, 'not_found', 'No such tool.') : json(201, { call });
    }
    if (path === '/agent') {
      const text = field(body, 'text');
      if (text === undefined || text.trim() === '')
        return refuse(400, 'invalid_body', 'Send a text of at most 200 characters.');
      return (await session.sendAgent(text))
        ? json(202, { sent: true })
        : refuse(409, 'busy', 'The agent is still answering.');
    }
    if (path === '/agent/stop')
      return session.stopAgent()
        ? json(200, { stopped: true })
        : refuse(404, 'not_found', 'The agent is not answering.');
    const action = /^\/calls\/([^/]{1,100})\/(cancel|retry)$/.exec(path);
    if (action?.[2] === 'cancel')
      return session.cancel(action[1]!)
        ? json(200, { cancelled: true })
        : refuse(404, 'not_found', 'No such call is running.');
    if (action?.[2] === 'retry') {
      const call = session.retry(action[1]!);
      return call === undefined
        ? refuse(404, 'not_found', 'No such call has ended.')
        : json(200, { call });
    }
    return refuse(404, 'not_found', 'No such route.');
  };
  return Object.assign(handle, {
    closeStreams: () => {
      for (const end of [...streams]) end();
    },
  });
}
