import type { Stream } from './feed';
import type { RouteContext } from './handler';
import { eventStreamHeaders, refuse } from './responses';

/**
 * The Server-Sent Events stream of one scope: a snapshot (or, resuming with `Last-Event-ID`, what
 * changed since), then every change. It ends when the client goes away, falls too far behind, or
 * the handler's `closeStreams` is called; nothing of it stays subscribed after that.
 */
export async function eventsRoute(request: Request, context: RouteContext): Promise<Response> {
  const feed = await context.feedOf(context.scope);
  if (feed.streams.size >= context.limits.maxStreamsPerScope)
    return new Response(
      JSON.stringify({ error: 'refused', message: 'Too many open streams for this inbox.' }),
      {
        status: 429,
        headers: { ...context.cors, 'content-type': 'application/json', 'retry-after': '5' },
      },
    );
  if (request.signal.aborted)
    return refuse(499, 'closed', 'The client went away.', {}, context.cors);
  let stream: Stream | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let ended = false;
        const end = (): void => {
          if (ended) return;
          ended = true;
          feed.streams.delete(stream!);
          request.signal.removeEventListener('abort', end);
          feed.release();
          try {
            controller.close();
          } catch {
            // Already cancelled by the reader.
          }
        };
        stream = {
          send(bytes) {
            if (ended) return;
            // A client this far behind is closed rather than buffered without end: it resumes.
            if ((controller.desiredSize ?? 0) <= 0) return end();
            controller.enqueue(bytes);
          },
          close: end,
        };
        feed.streams.add(stream);
        request.signal.addEventListener('abort', end);
        controller.enqueue(feed.catchUp(request.headers.get('last-event-id')));
      },
      cancel() {
        stream?.close();
      },
    },
    { highWaterMark: context.limits.maxQueuedBytes, size: (chunk) => chunk.byteLength },
  );
  return new Response(body, { status: 200, headers: eventStreamHeaders(context.cors) });
}
