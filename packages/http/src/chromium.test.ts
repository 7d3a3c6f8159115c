import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { createInbox } from '@waitfor/core';
import type { Answer } from '@waitfor/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createInboxHandler } from './handler';
import { toNodeListener } from './node';

// Debian's Chromium against a real server: the page loads the built remote inbox, signs in with a
// cookie, and the browser sets Origin itself (a script cannot forge it).
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));
let browser: Browser;
let script: string;
const inbox = createInbox();
const servers: Server[] = [];

/** Listens on 127.0.0.1 and returns the origin; `listener` is given the origin too. */
type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

async function listen(listener: (origin: string) => Listener): Promise<string> {
  // The listener is made once the port, and so the origin, is known.
  const handle: { listener?: Listener } = {};
  const server = createServer((incoming, outgoing) => handle.listener!(incoming, outgoing));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  handle.listener = listener(origin);
  return origin;
}

let app = '';
let elsewhere = '';

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [source('./client.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'waitforHttp',
    write: false,
    alias: {
      '@waitfor/core': source('../../core/src/index.ts'),
      '@waitfor/runtime': source('../../runtime/src/index.ts'),
    },
  });
  script = bundle.outputFiles[0]!.text;
  app = await listen((origin) => {
    const handler = toNodeListener(
      createInboxHandler({
        inboxFor: () => inbox,
        authorize: (request) =>
          /(^|; )session=alice(;|$)/.test(request.headers.get('cookie') ?? '') ? 'alice' : null,
        allowedOrigins: [origin],
        basePath: '/api/inbox',
      }),
    );
    return (incoming, outgoing) => {
      if (incoming.url?.startsWith('/api/inbox/')) return handler(incoming, outgoing);
      if (incoming.url === '/client.js') {
        outgoing.writeHead(200, { 'content-type': 'text/javascript' });
        return void outgoing.end(script);
      }
      outgoing.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'session=alice' });
      outgoing.end(
        '<!doctype html><title>inbox</title><script src="/client.js"></script>' +
          "<script>window.inbox = waitforHttp.createRemoteInbox({ url: '/api/inbox' });</script>",
      );
    };
  });
  // Another origin on the same machine (same site: the session cookie goes along).
  elsewhere = await listen(() => (_incoming, outgoing) => {
    outgoing.writeHead(200, { 'content-type': 'text/html' });
    outgoing.end('<!doctype html><title>elsewhere</title>');
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

type PageInbox = { getSnapshot(): Array<{ id: string }>; submit(answer: Answer): Promise<boolean> };
const openIds = (page: Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { inbox: PageInbox }).inbox.getSnapshot().map((r) => r.id),
  );

it('two tabs on one session: an answer in one leaves the other; another origin cannot answer', async () => {
  const context = await browser.newContext();
  const [first, second] = [await context.newPage(), await context.newPage()];
  await first.goto(app);
  await second.goto(app);
  const answer = inbox.waitFor({ id: 'trip-1', kind: 'approval', prompt: 'Book it?' });
  for (const page of [first, second])
    await page.waitForFunction(
      () => (globalThis as unknown as { inbox: PageInbox }).inbox.getSnapshot().length === 1,
    );

  // A page on another origin, with the session cookie: fetch is stopped by CORS, a form is 403.
  const attacker = await context.newPage();
  await attacker.goto(elsewhere);
  const fetched = await attacker.evaluate(
    (url) =>
      fetch(url, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'trip-1', ok: true }),
      }).then(
        (response) => `status ${response.status}`,
        () => 'blocked',
      ),
    `${app}/api/inbox/requests/trip-1/answer`,
  );
  expect(fetched).toBe('blocked');
  const [posted] = await Promise.all([
    attacker.waitForNavigation(),
    attacker.evaluate((url) => {
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = url;
      form.enctype = 'text/plain';
      const field = document.createElement('input');
      field.name = '{"id":"trip-1","ok":true,"x":"';
      field.value = '"}';
      form.append(field);
      document.body.append(form);
      form.submit();
    }, `${app}/api/inbox/requests/trip-1/answer`),
  ]);
  expect(posted?.status()).toBe(403);
  expect(inbox.get('trip-1')).toBeDefined();

  expect(
    await first.evaluate(() =>
      (globalThis as unknown as { inbox: PageInbox }).inbox.submit({ id: 'trip-1', ok: true }),
    ),
  ).toBe(true);
  await expect(answer).resolves.toEqual({ id: 'trip-1', ok: true });
  await second.waitForFunction(
    () => (globalThis as unknown as { inbox: PageInbox }).inbox.getSnapshot().length === 0,
  );
  expect(await openIds(second)).toEqual([]);
  await context.close();
}, 120_000);
