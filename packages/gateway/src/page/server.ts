/**
 * The page's HTTP server, on 127.0.0.1 only: everything lives under `/<token>/` — the built page
 * and the `@waitfor/http` inbox endpoint at `/<token>/api/inbox`. A request without the token (or
 * with another one), or naming another host (DNS rebinding), is refused 403 before anything is read.
 * The token never leaves the page: no Referer is sent from it, nothing is cached.
 */
import { timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { createInboxHandler } from '@waitfor/http';
import { toNodeListener } from '@waitfor/http/node';
import type { StoreInbox } from '@waitfor/store';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

const headers = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/** Options of servePage. */
export interface PageServerOptions {
  inbox: StoreInbox;
  /** The built page (index.html and its assets). */
  assetsDir: string;
  token: string;
  /** Tried first (the last run's, so an open tab reconnects after a restart); any free port when taken. */
  port?: number;
}

/** The running page server. */
export interface PageServer {
  /** `http://127.0.0.1:<port>/<token>/` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const sameToken = (given: string, token: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
};

async function sendAsset(
  root: string,
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
) {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return void response.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end();
  const relative = normalize(path === '' ? 'index.html' : path).replace(/^([/\\])+/, '');
  const target = join(root, relative);
  if (!target.startsWith(root + sep)) return void response.writeHead(403, headers).end();
  try {
    const body = await readFile(target);
    response.writeHead(200, {
      ...headers,
      'content-type': types[extname(target)] ?? 'application/octet-stream',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  } catch {
    response.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('Not found');
  }
}

const listenOn = (server: ReturnType<typeof createServer>, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

/** Serve the page and its inbox on 127.0.0.1. */
export async function servePage(options: PageServerOptions): Promise<PageServer> {
  const { token, inbox } = options;
  const root = resolve(options.assetsDir);
  const api = `/${token}/api/inbox`;
  const server = createServer();
  try {
    await listenOn(server, options.port ?? 0);
  } catch {
    await listenOn(server, 0);
  }
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const inboxHandler = createInboxHandler({
    basePath: api,
    allowedOrigins: [origin],
    authorize: () => 'person',
    inboxFor: () => inbox,
  });
  const onInbox = toNodeListener(inboxHandler);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const [, given = '', ...rest] = path.split('/');
    if (request.headers.host !== `127.0.0.1:${port}` || !sameToken(given, token))
      return void response
        .writeHead(403, { ...headers, 'content-type': 'text/plain' })
        .end('Forbidden');
    if (rest.length === 0)
      return void response.writeHead(308, { ...headers, location: `/${token}/` }).end();
    if (path === api || path.startsWith(`${api}/`)) return void onInbox(request, response);
    void sendAsset(root, decodeURIComponent(rest.join('/')), request, response).catch(() =>
      response.destroy(),
    );
  });
  return {
    url: `${origin}/${token}/`,
    port,
    close: async () => {
      inboxHandler.closeStreams();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
