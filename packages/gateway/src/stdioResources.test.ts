/**
 * Resource updates toward a 2026-07-28 host over stdio, through the command as a host runs it
 * (`waitfor-gateway --era … --url …`), in front of the updating fixture of either era: the gateway
 * subscribes upstream before the acknowledgement (the server counts it), the host hears its URI's
 * updates, and the upstream subscription ends with the listen. The bounds refuse in band as over
 * HTTP; a 2026-07-28 server that ends the resource's stream ends the host's listen; a 2025 host
 * subscribes on its own session as before.
 */
import type { Client as V2Client } from '@modelcontextprotocol/client';
import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { expectListenBounds } from './__fixtures__/listenBounds';
import {
  childTsconfig,
  gatewayBin,
  openHost,
  tsxBinary,
  type HostKind,
} from './__fixtures__/hosts';
import { startUpdatingHttpServer, type UpdatingHttpServer } from './__fixtures__/updatingServer';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const A = 'updating://a';
const B = 'updating://b';

/** The updating fixture of `era`, and a host of `kind` spawning the gateway in front of it. */
async function setup(era: 'legacy' | 'modern', kind: HostKind = 'v2-modern') {
  const upstream: UpdatingHttpServer = await startUpdatingHttpServer();
  cleanups.push(() => upstream.close());
  const host = await openHost(
    kind,
    {
      command: tsxBinary,
      args: ['--tsconfig', childTsconfig, gatewayBin, '--era', era, '--url', upstream.url],
    },
    async () => ({ action: 'cancel' }),
  );
  cleanups.push(() => host.close());
  const updates: string[] = [];
  if (kind === 'v2-modern')
    (host.raw as V2Client).setNotificationHandler(
      'notifications/resources/updated' as never,
      ((notification: { params: { uri: string } }) =>
        void updates.push(notification.params.uri)) as never,
    );
  return { upstream, host, client: host.raw as V2Client, updates };
}

describe.each(['legacy', 'modern'] as const)('a 2026-07-28 host over stdio, %s upstream', (era) => {
  test('its URI subscribed upstream before the acknowledgement, its updates only, none after its end', async () => {
    const { upstream, host, client, updates } = await setup(era);
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const subscription = await client.listen({ resourceSubscriptions: [A] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [A] });
    expect(upstream.subscribers(A)).toBe(1);
    await host.callTool('update', { uri: B });
    await host.callTool('update', { uri: A });
    await vi.waitFor(() => expect(updates).toEqual([A]));
    await subscription.close();
    // The host's cancel of its listen ends the upstream subscription.
    await vi.waitFor(() => expect(upstream.subscribers(A)).toBe(0));
    // A's update after the end is not heard; B's, on a listen of its own, is (and comes after).
    const other = await client.listen({ resourceSubscriptions: [B] });
    await host.callTool('update', { uri: A });
    await host.callTool('update', { uri: B });
    await vi.waitFor(() => expect(updates).toEqual([A, B]));
    await other.close();
  });

  test('a listen past the bounds is refused in band, before anything is subscribed upstream', async () => {
    const { upstream, client } = await setup(era);
    await expectListenBounds(client, upstream, 33);
  });
});

test("a 2026-07-28 server that ends a resource's stream ends the host's listen; a new one subscribes afresh", async () => {
  const { upstream, host, client, updates } = await setup('modern');
  const subscription = await client.listen({ resourceSubscriptions: [A] });
  expect(upstream.subscribers(A)).toBe(1);
  upstream.endListens();
  await expect(subscription.closed).resolves.toBe('graceful');
  const again = await client.listen({ resourceSubscriptions: [A] });
  expect(again.honoredFilter).toEqual({ resourceSubscriptions: [A] });
  expect(upstream.subscribers(A)).toBe(1);
  expect(upstream.subscribed).toBe(2);
  await host.callTool('update', { uri: A });
  await vi.waitFor(() => expect(updates).toEqual([A]));
  await again.close();
});

test('a 2025 host over stdio subscribes on its own upstream session, as before', async () => {
  const { upstream, host } = await setup('legacy', 'v1');
  const client = host.raw as V1Client;
  expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
  await client.subscribeResource({ uri: A });
  expect(upstream.subscribers(A)).toBe(1);
  await host.callTool('update', { uri: A });
  await vi.waitFor(() => expect(host.notified).toContain('notifications/resources/updated'));
  await client.unsubscribeResource({ uri: A });
  expect(upstream.subscribers(A)).toBe(0);
});
