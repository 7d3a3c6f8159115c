import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

const missingBuild = `<!doctype html><meta charset="utf-8"><title>waitfor example</title>
<p>The page is not built yet. Run <code>pnpm example</code> from the repository root
(or <code>pnpm --filter @waitfor/example build</code>) and reload.</p>`;

/**
 * Serves the Vite build in `root` with node:http: GET/HEAD only, no path may leave `root`, and
 * unknown paths fall back to index.html (the page is a single-page app).
 */
export async function serveStatic(
  root: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://local').pathname);
  const relative = normalize(pathname === '/' ? '/index.html' : pathname).replace(/^([/\\])+/, '');
  const target = join(root, relative);
  if (target !== root && !target.startsWith(root + sep)) {
    response.writeHead(403).end();
    return;
  }
  const send = (status: number, type: string, body: Buffer | string) => {
    response.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache' });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
  try {
    send(200, contentTypes[extname(target)] ?? 'application/octet-stream', await readFile(target));
  } catch {
    if (extname(relative) !== '' && relative !== 'index.html') {
      send(404, 'text/plain', 'Not found');
      return;
    }
    try {
      send(200, contentTypes['.html'] ?? 'text/html', await readFile(join(root, 'index.html')));
    } catch {
      send(503, 'text/html; charset=utf-8', missingBuild);
    }
  }
}
