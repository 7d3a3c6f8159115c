/**
 * A 2026-07-28 host hears the upstream's list changes on its `subscriptions/listen` stream: over
 * the gateway's HTTP endpoint (served per request) and over stdio, in front of a real upstream of
 * either era that grows its tool list. The host is told, lists again and sees the new tool. Listen
 * streams are bounded per host, and a closed stream gives its place back.
 */
import { fileURLToPath } from 'node:url';
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { startGrowingHttpServer, type GrowingHttpServer } from './__fixtures__/growingHttpServer';
import { childTsconfig, gatewayBin, openHost, tsxBinary, type Host } from './__fixtures__/hosts';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from './index';

const growingStdio = fileURLToPath(new URL('./__fixtures__/growingServer.ts', import.meta.url));

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Upstream = { name: string; era: 'legacy' | 'modern'; start: () => Promise<object> };

const upstreams: Upstream[] = [
  {
    name: '2025 HTTP upstream (shared list)',
    era: 'legacy',
    start: async () => {
      const server: GrowingHttpServer = await startGrowingHttpServer();
      cleanups.push(() => server.close());
      return { url: server.url };
    },
  },
  {
    name: '2026-07-28 HTTP upstream',
    era: 'modern',
    start: async () => {
      const server = await startGrowingHttpServer();
      cleanups.push(() => server.close());
      return { url: server.url };
    },
  },
  {
    name: '2026-07-28 stdio upstream',
    era: 'modern',
    start: async () => ({ command: tsxBinary, args: [growingStdio] }),
  },
];

/** A gateway over HTTP in front of `upstream`, and a v2 host pinned to 2026-07-28 on it. */
async function gatewayHost(
  upstream: Upstream,
  options: { maxListenersPerHost?: number } = {},
): Promise<{ gateway: Gateway; endpoint: HttpEndpoint; host: Host }> {
  const gateway = await createGateway({
    upstream: (await upstream.start()) as never,
    era: upstream.era,
    log: () => undefined,
  });
  cleanups.push(() => gateway.close());
  const endpoint = await serveHttp(gateway, options);
  cleanups.push(() => endpoint.close());
  const host = await openHost('v2-modern', { url: endpoint.url }, async () => ({
    action: 'cancel',
  }));
  cleanups.push(() => host.close());
  return { gateway, endpoint, host };
}

/** Count the list changes the host's client is told of. */
function countChanges(host: Host): { readonly count: number } {
  const seen = { count: 0 };
  (host.raw as V2Client).setNotificationHandler(
    'notifications/tools/list_changed' as never,
    (() => void (seen.count += 1)) as never,
  );
  return seen;
}

const names = async (host: Host) => (await host.listTools()).tools.map((tool) => tool.name);

describe.each(upstreams)('a 2026-07-28 host over HTTP, $name', (upstream) => {
  test('listens, is told the tool list changed, lists again and sees the new tool', async () => {
    const { host } = await gatewayHost(upstream);
    const changes = countChanges(host);
    expect(await names(host)).toEqual(['grow']);
    const subscription = await (host.raw as V2Client).listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await host.callTool('grow');
    await vi.waitFor(() => expect(changes.count).toBe(1));
    expect(await names(host)).toEqual(['grow', 'grown_1']);
    await subscription.close();
  });
});

describe('listen streams toward 2026-07-28 hosts', () => {
  test('an upstream without resource subscriptions: the acknowledgement leaves them out', async () => {
    const { host } = await gatewayHost(upstreams[1]!);
    const subscription = await (host.raw as V2Client).listen({
      toolsListChanged: true,
      resourceSubscriptions: ['growing://anything'],
    });
    // This upstream has no resources to subscribe to (resourceListens.test.ts has one that has).
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await subscription.close();
  });

  test('one host holds at most maxListenersPerHost streams; a closed one gives its place back', async () => {
    const { host } = await gatewayHost(upstreams[1]!, { maxListenersPerHost: 1 });
    const client = host.raw as V2Client;
    const first = await client.listen({ toolsListChanged: true });
    await expect(client.listen({ toolsListChanged: true })).rejects.toThrow(/limit/i);
    await first.close();
    await expect(first.closed).resolves.toBe('local');
    const again = await vi.waitFor(() => client.listen({ toolsListChanged: true }));
    expect(again.honoredFilter).toEqual({ toolsListChanged: true });
    await again.close();
  });
});

describe.each(['legacy', 'modern'] as const)(
  'a 2026-07-28 host over stdio, %s stdio upstream',
  (era) => {
    test('listens, is told the tool list changed, lists again and sees the new tool', async () => {
      const host = await openHost(
        'v2-modern',
        {
          command: tsxBinary,
          args: [
            '--tsconfig',
            childTsconfig,
            gatewayBin,
            '--era',
            era,
            '--',
            tsxBinary,
            growingStdio,
          ],
        },
        async () => ({ action: 'cancel' }),
      );
      cleanups.push(() => host.close());
      const changes = countChanges(host);
      expect(await names(host)).toEqual(['grow']);
      const subscription = await (host.raw as V2Client).listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
      await host.callTool('grow');
      await vi.waitFor(() => expect(changes.count).toBe(1));
      expect(await names(host)).toEqual(['grow', 'grown_1']);
      await subscription.close();
    });
  },
);
