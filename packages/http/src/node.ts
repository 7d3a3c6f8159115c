import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** Options of toNodeListener. */
export interface NodeListenerOptions {
  /** The origin requests are addressed to, e.g. `https://app.example` (default: from the Host header). */
  origin?: string;
}

/**
 * Mounts a Web-standard handler (createInboxHandler's) on Node's `http.createServer`: the request
 * becomes a `Request` whose `signal` aborts when the client goes away, and the `Response` body is
 * streamed with backpressure (an event stream is cancelled when the socket closes).
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
  options: NodeListenerOptions = {},
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    void respond(handler, options, incoming, outgoing).catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(500);
      outgoing.end();
    });
  };
}

async function respond(
  handler: (request: Request) => Promise<Response>,
  options: NodeListenerOptions,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  outgoing.once('close', () => controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const request = new Request(urlOf(incoming, options.origin), {
    method,
    headers,
    signal: controller.signal,
    ...(hasBody
      ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: 'half' }
      : {}),
  } as RequestInit);
  const response = await handler(request);
  const head = headersOf(response.headers);
  // A refused body (413) was not read to its end: the connection cannot carry another request.
  if (hasBody && !incoming.complete) head['connection'] = 'close';
  outgoing.writeHead(response.status, head);
  // Event streams: the headers go out now, before the first event.
  outgoing.flushHeaders();
  if (!response.body) return void outgoing.end();
  const reader = response.body.getReader();
  // The socket closing cancels the body, which ends an event stream's subscription.
  const cancel = (): void => void reader.cancel().catch(() => {});
  outgoing.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) await drained(outgoing);
    }
  } finally {
    outgoing.off('close', cancel);
    outgoing.end();
  }
}

/** Resolves when the socket takes more data, or is gone (then the next read is cancelled). */
function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      outgoing.off('drain', done);
      outgoing.off('close', done);
      resolve();
    };
    outgoing.once('drain', done);
    outgoing.once('close', done);
  });
}

function urlOf(incoming: IncomingMessage, origin: string | undefined): string {
  const path = incoming.url ?? '/';
  try {
    return new URL(path, origin ?? `http://${incoming.headers.host ?? 'localhost'}`).href;
  } catch {
    // A Host header that is no host: the path alone still routes.
    return new URL(path, 'http://localhost').href;
  }
}

function headersOf(headers: Headers): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null);
  headers.forEach((value, name) => {
    result[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) result['set-cookie'] = cookies;
  return result;
}
