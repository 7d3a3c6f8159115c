/**
 * Hosts that cannot ask, in process: real SDK hosts (v1, and v2 pinned to 2026-07-28) declaring no
 * elicitation call a tool of the dual-era fixture (either era, over Streamable HTTP) through the
 * gateway over Streamable HTTP; the question is kept in the page's store (PGlite in memory) and
 * answered through its inbox (the Chromium test answers it on the page). The gateway's clock is the
 * test's: progress keep-alive is sent only when the test moves it.
 */
import { accept, type Request } from '@waitfor/core';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  startDualEraHttpServer,
  type DualEraHttpServer,
} from '../../../mcp-bridge/src/__fixtures__/dualEraServer';
import { openHost, textOf, type HostKind } from '../__fixtures__/hosts';
import { manualClock } from '../__fixtures__/manualClock';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from '../index';
import { createPage, type Page, type PagePolicy } from './index';

interface Running {
  upstream: DualEraHttpServer;
  page: Page;
  gateway: Gateway;
  endpoint: HttpEndpoint;
  clock: ReturnType<typeof manualClock>;
  logs: string[];
}

let running: Running | undefined;

async function start(era: 'legacy' | 'modern', policy: PagePolicy = {}): Promise<Running> {
  const logs: string[] = [];
  const log = (line: string) => void logs.push(line);
  const clock = manualClock();
  const upstream = await startDualEraHttpServer();
  const page = await createPage({ ...policy, assetsDir: '/nonexistent', log });
  const gateway = await createGateway({
    upstream: { url: upstream.url },
    era,
    log,
    clock,
    cannotAsk: page.cannotAsk,
  });
  running = { upstream, page, gateway, endpoint: await serveHttp(gateway), clock, logs };
  return running;
}

afterEach(async () => {
  await running?.endpoint.close();
  await running?.gateway.close();
  await running?.page.close();
  await running?.upstream.close();
  running = undefined;
});

/** The page's open question asking `prompt`, once it is listed. */
async function listed(page: Page, prompt: string): Promise<Request> {
  await expect
    .poll(() => page.inbox.getSnapshot().map((request) => request.prompt), { timeout: 20_000 })
    .toContain(prompt);
  return page.inbox.getSnapshot().find((request) => request.prompt === prompt) as Request;
}

const noAsk = () => Promise.reject(new Error('this host cannot be asked'));
const combos: Array<[HostKind, 'legacy' | 'modern']> = [
  ['v1', 'legacy'],
  ['v1', 'modern'],
  ['v2-modern', 'legacy'],
  ['v2-modern', 'modern'],
];

describe('a host that cannot ask: the gateway asks on its page', () => {
  test.each(combos)(
    '%s host, %s upstream: the call waits, is kept alive, and completes with the page answer',
    async (kind, era) => {
      const { page, endpoint, clock } = await start(era, { keepAliveMs: 10_000 });
      const host = await openHost(kind, { url: endpoint.url }, noAsk, 'none');
      try {
        const progress: Array<{ progress: number; message?: string }> = [];
        let settled = false;
        const call = host.callTool(
          'ask_form',
          {},
          { onprogress: (p) => progress.push(p as never) },
        );
        void call.finally(() => (settled = true));
        const question = await listed(page, 'Who are you?');
        expect(host.asked).toEqual([]);
        // Nothing is sent before the clock moves; each step of keepAliveMs sends one progress.
        expect(progress).toEqual([]);
        clock.advance(10_000);
        await expect.poll(() => progress.length).toBe(1);
        clock.advance(20_000);
        await expect.poll(() => progress.length).toBe(3);
        expect(progress.map((each) => each.progress)).toEqual([1, 2, 3]);
        expect(progress[0]?.message).toMatch(/waiting for the person/);
        expect(settled).toBe(false);
        expect(await page.inbox.submit(accept(question, { name: 'Ada', age: 36 }))).toBe(true);
        expect(textOf(await call)).toBe('accept:{"name":"Ada","age":36}');
        // Answered: the page lists nothing, and the keep-alive stopped.
        expect(page.inbox.getSnapshot()).toEqual([]);
        clock.advance(60_000);
        expect(progress).toHaveLength(3);
      } finally {
        await host.close();
      }
    },
  );

  test('a host call cancelled while it waits: the upstream call ends and the question is withdrawn', async () => {
    const { page, gateway, endpoint } = await start('legacy');
    const host = await openHost('v2-modern', { url: endpoint.url }, noAsk, 'none');
    try {
      const abort = new AbortController();
      const call = host.callTool('ask_form', {}, { signal: abort.signal });
      await listed(page, 'Who are you?');
      expect(gateway.open).toBe(1);
      abort.abort(new Error('the host gave up'));
      await expect(call).rejects.toThrow();
      await expect.poll(() => gateway.open).toBe(0);
      await expect.poll(() => page.inbox.getSnapshot().length).toBe(0);
    } finally {
      await host.close();
    }
  });

  test('--decline and --modes: such questions are declined upstream without asking', async () => {
    const { page, endpoint, logs } = await start('modern', {
      decline: ['ask_form'],
      modes: ['form'],
    });
    const host = await openHost('v1', { url: endpoint.url }, noAsk, 'none');
    try {
      expect(textOf(await host.callTool('ask_form'))).toBe('decline');
      expect(textOf(await host.callTool('ask_url'))).toBe('decline');
      expect(page.inbox.getSnapshot()).toEqual([]);
      expect(logs.join('\n')).toMatch(/ask_form is on the decline list/);
      expect(logs.join('\n')).toMatch(/does not ask url questions/);
    } finally {
      await host.close();
    }
  });

  test('--question-timeout: an unanswered question expires on the page and the call ends', async () => {
    const { page, endpoint } = await start('modern', { questionTimeoutMs: 1 });
    const host = await openHost('v2-modern', { url: endpoint.url }, noAsk, 'none');
    try {
      // Expired (by the store, at its expiresAt) before anyone answered: the server hears cancel.
      expect(textOf(await host.callTool('ask_form'))).toBe('cancel');
      expect(page.inbox.getSnapshot()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  test('a host that declared form only gets its form questions; the URL one goes to the page', async () => {
    const { page, endpoint } = await start('modern');
    const host = await openHost(
      'v1',
      { url: endpoint.url },
      async () => ({ action: 'accept', content: { name: 'Host' } }),
      'form',
    );
    try {
      expect(textOf(await host.callTool('ask_form'))).toMatch(/^accept:\{"name":"Host"/);
      const call = host.callTool('ask_url');
      const question = await listed(page, 'Sign in to continue');
      expect(question.kind).toBe('authorization');
      page.inbox.answer(accept(question));
      expect(textOf(await call)).toBe('accept');
    } finally {
      await host.close();
    }
  });
});

beforeEach(() => {
  running = undefined;
});
