/** JSON and error responses of the handler; every one is uncacheable and never sniffed. */

const baseHeaders = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/** A JSON response with `status`, plus any CORS headers for the caller's origin. */
export function json(status: number, body: unknown, cors: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...baseHeaders, ...cors, 'content-type': 'application/json; charset=utf-8' },
  });
}

/** A refusal: `{ error, message }` (and per-field `errors` for a form answer). */
export function refuse(
  status: number,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
  cors: Record<string, string> = {},
): Response {
  return json(status, { error, message, ...extra }, cors);
}

/** The headers of a Server-Sent Events response. */
export function eventStreamHeaders(cors: Record<string, string>): Record<string, string> {
  return {
    ...baseHeaders,
    ...cors,
    'content-type': 'text/event-stream; charset=utf-8',
    // Proxies such as nginx buffer responses unless told not to; a buffered stream never arrives.
    'x-accel-buffering': 'no',
  };
}

/**
 * CORS headers for an allowed origin (none for any other): a page served elsewhere may read the
 * answers and send credentials; `Vary` keeps caches from mixing origins.
 */
export function corsFor(
  origin: string | null,
  allowed: ReadonlySet<string>,
): Record<string, string> {
  if (origin === null || !allowed.has(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    vary: 'Origin',
  };
}
