import type { IncomingMessage, ServerResponse } from 'node:http';

// The page is served from another port than the MCP servers, so the browser's MCP clients make
// cross-origin requests. These are the headers both protocol eras put on the wire.
const allowedHeaders = [
  'content-type',
  'accept',
  'authorization',
  'last-event-id',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
].join(', ');

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether an `Origin` header names a page on this machine (or is absent: not a browser request). */
export function isLoopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return loopbackHosts.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/**
 * Answers CORS for a loopback page and refuses any other origin (DNS-rebinding and cross-site
 * protection: a page on the internet must not drive local tools). Returns true when the response
 * was already written (preflight or refusal).
 */
export function handleCors(request: IncomingMessage, response: ServerResponse): boolean {
  const origin = request.headers.origin;
  if (!isLoopbackOrigin(origin)) {
    response.writeHead(403, { 'content-type': 'text/plain' }).end('Origin not allowed');
    return true;
  }
  if (origin !== undefined) {
    response.setHeader('access-control-allow-origin', origin);
    response.setHeader('vary', 'origin');
    response.setHeader('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
  }
  if (request.method === 'OPTIONS') {
    response.writeHead(204, {
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': allowedHeaders,
      'access-control-max-age': '600',
    });
    response.end();
    return true;
  }
  return false;
}
