import { schedule } from '@waitfor/runtime';

/** Why a body could not be read. */
export type BodyFailure = 'too_large' | 'not_utf8';

/**
 * Reads a request body as UTF-8 text, holding at most `maxBytes`: a larger body is cancelled as
 * soon as it passes the limit (never buffered whole), so a client cannot fill the server's memory.
 */
export async function readCapped(
  request: Request,
  maxBytes: number,
): Promise<{ text: string } | { failure: BodyFailure }> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > maxBytes) return { failure: 'too_large' };
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        // Not awaited: a client that stops sending must not hold the refusal back.
        reader.cancel().catch(() => {});
        return { failure: 'too_large' };
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { failure: 'not_utf8' };
  }
}

/** A request whose body must end by a deadline (see `withReadDeadline`). */
export interface ReadDeadline {
  /** The same request, its body passed through the deadline. */
  request: Request;
  /** Resolves when the deadline passed before the body ended (never, once it ended in time). */
  expired: Promise<void>;
  /** True once the deadline passed before the body ended. */
  readonly timedOut: boolean;
  /** Stops the clock (the route is done). */
  stop(): void;
}

/**
 * `request` with a deadline on reading its body: a body that has not ended `ms` after this call
 * (a client that sends slowly, or stops before the end) errors for whoever reads it, its source is
 * cancelled, and `expired` resolves. Errored, not ended early: a body cut short is never read as
 * if whole. A request without a body, or `ms` of Infinity, has no deadline.
 */
export function withReadDeadline(request: Request, ms: number): ReadDeadline {
  let expire = (): void => {};
  const expired = new Promise<void>((resolve) => (expire = resolve));
  const deadline: ReadDeadline = { request, expired, timedOut: false, stop: () => {} };
  if (request.body === null || !(ms < Infinity)) return deadline;
  const source = request.body.getReader();
  let ended = false;
  let timeOut = (): void => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      timeOut = () => {
        (deadline as { timedOut: boolean }).timedOut = true;
        expire();
        controller.error(new Error(`The body did not arrive within ${ms} ms.`));
        source.cancel().catch(() => {});
      };
    },
    async pull(controller) {
      const { done, value } = await source.read();
      if (deadline.timedOut) return;
      if (!done) return controller.enqueue(value);
      ended = true;
      stop();
      controller.close();
    },
    cancel: (reason) => {
      stop();
      return source.cancel(reason);
    },
  });
  const stop = schedule(ms, () => {
    if (!ended) timeOut();
  });
  deadline.stop = stop;
  // Node's fetch needs `duplex` for a streamed body; other runtimes ignore it.
  deadline.request = new Request(request, { body, duplex: 'half' } as RequestInit);
  return deadline;
}
