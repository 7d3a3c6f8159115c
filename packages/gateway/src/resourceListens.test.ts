/**
 * A 2026-07-28 host over HTTP whose listen filter names `resourceSubscriptions` hears those
 * resources' updates through the gateway, in front of a real upstream of either era whose
 * resources change on a tool call: the gateway subscribes upstream for the URI (a 2025 session's
 * `resources/subscribe`, a 2026-07-28 listen stream), the host is told for its URI and not for
 * another, and the upstream subscription ends once no stream wants it. The bounds refuse in band.
 */
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { expectListenBounds } from './__fixtures__/listenBounds';
import { openHost, type Host } from './__fixtures__/hosts';
import { startUpdatingHttpServer, type UpdatingHttpServer } from './__fixtures__/updatingServer';
import { createGateway, serveHttp, type GatewayOptions, type ServeHttpOptions } from './index';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const A = 'updating://a';
const B = 'updating://b';

/** An updating upstream of `era`, a gateway over HTTP in front of it, and a way to add hosts. */
async function setup(
  era: 'legacy' | 'modern',
  options: ServeHttpOptions = {},
  connect: GatewayOptions['connect'] = {},
) {
  const upstream: UpdatingHttpServer = await startUpdatingHttpServer();
  cleanups.push(() => upstream.close());
  const logged: string[] = [];
  const gateway = await createGateway({
    upstream: { url: upstream.url },
    era,
    log: (line) => logged.push(line),
    connect,
  });
  cleanups.push(() => gateway.close());
  const endpoint = await serveHttp(gateway, options);
  cleanups.push(() => endpoint.close());
  const host = async (): Promise<{ host: Host; client: V2Client; updates: string[] }> => {
    const opened = await openHost('v2-modern', { url: endpoint.url }, async () => ({
      action: 'cancel',
    }));
    cleanups.push(() => opened.close());
    const client = opened.raw as V2Client;
    const updates: string[] = [];
    client.setNotificationHandler(
      'notifications/resources/updated' as never,
      ((notification: { params: { uri: string } }) =>
        void updates.push(notification.params.uri)) as never,
    );
    return { host: opened, client, updates };
  };
  return { upstream, host, logged };
}

describe.each(['legacy', 'modern'] as const)('in front of a %s upstream', (era) => {
  test('the host is offered subscriptions, acknowledged its URI, told of its updates only', async () => {
    const { upstream, host } = await setup(era);
    const { host: opened, client, updates } = await host();
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    const subscription = await client.listen({ resourceSubscriptions: [A] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [A] });
    // Subscribed upstream before the acknowledgement.
    expect(upstream.subscribers(A)).toBe(1);
    expect(upstream.subscribers(B)).toBe(0);
    await opened.callTool('update', { uri: B });
    await opened.callTool('update', { uri: A });
    await vi.waitFor(() => expect(updates).toEqual([A]));
    await subscription.close();
    // Closing the stream ends the upstream subscription (an unsubscribe, a closed stream).
    await vi.waitFor(() => expect(upstream.subscribers(A)).toBe(0));
  });

  test('two streams wanting one URI share one upstream subscription, ended with the last', async () => {
    const { upstream, host } = await setup(era);
    const first = await host();
    const second = await host();
    const one = await first.client.listen({ resourceSubscriptions: [A] });
    const two = await second.client.listen({ resourceSubscriptions: [A, A] });
    expect(two.honoredFilter).toEqual({ resourceSubscriptions: [A] });
    expect(upstream.subscribers(A)).toBe(1);
    expect(upstream.subscribed).toBe(1);
    await one.close();
    await first.host.callTool('update', { uri: A });
    await vi.waitFor(() => expect(second.updates).toEqual([A]));
    expect(upstream.subscribers(A)).toBe(1);
    await two.close();
    await vi.waitFor(() => expect(upstream.subscribers(A)).toBe(0));
    // A later listen subscribes afresh.
    const three = await first.client.listen({ resourceSubscriptions: [A] });
    expect(upstream.subscribers(A)).toBe(1);
    await three.close();
  });

  test('a listen naming 10 000 URIs is refused before anything is subscribed upstream', async () => {
    const { upstream, host } = await setup(era);
    const { client } = await host();
    await expectListenBounds(client, upstream, 10_000);
  });

  test('the endpoint subscribes at most maxResourceSubscriptions URIs; a closed stream frees its own', async () => {
    const { upstream, host } = await setup(era, { maxResourceSubscriptions: 1 });
    const { client } = await host();
    const first = await client.listen({ resourceSubscriptions: [A] });
    await expect(client.listen({ resourceSubscriptions: [B] })).rejects.toThrow(
      /limit reached \(1 URIs on this endpoint\)/,
    );
    // The URI already subscribed costs nothing more.
    const same = await client.listen({ resourceSubscriptions: [A] });
    expect(upstream.subscribers(B)).toBe(0);
    await first.close();
    await same.close();
    const next = await vi.waitFor(() => client.listen({ resourceSubscriptions: [B] }));
    expect(next.honoredFilter).toEqual({ resourceSubscriptions: [B] });
    await next.close();
  });
});

test('a URI a 2025 upstream refuses is left out of the acknowledgement, and said so', async () => {
  const { upstream, host, logged } = await setup('legacy');
  const { client } = await host();
  const refused = 'updating://refused/1';
  const subscription = await client.listen({ resourceSubscriptions: [refused, A] });
  expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [A] });
  expect(upstream.subscribers(refused)).toBe(0);
  expect(logged.some((line) => line.includes(refused))).toBe(true);
  await subscription.close();
});

describe('a subscription the upstream loses ends the listens acknowledged for it', () => {
  test('a 2025 session the server forgot: the host hears its listen end, a new listen subscribes on the new session', async () => {
    const { upstream, host, logged } = await setup(
      'legacy',
      {},
      { reconnect: { initialDelay: 1, maxDelay: 20 } },
    );
    const { host: opened, client, updates } = await host();
    const subscription = await client.listen({ resourceSubscriptions: [A] });
    expect(upstream.subscribers(A)).toBe(1);
    await upstream.forgetSessions();
    await expect(subscription.closed).resolves.toBe('graceful');
    expect(logged.some((line) => line.includes(`ended the subscription to ${A}`))).toBe(true);
    const again = await vi.waitFor(async () => {
      const next = await client.listen({ resourceSubscriptions: [A] });
      if (next.honoredFilter.resourceSubscriptions === undefined) {
        await next.close();
        throw new Error('not reconnected yet');
      }
      return next;
    });
    expect(upstream.subscribers(A)).toBe(1);
    await opened.callTool('update', { uri: A });
    await vi.waitFor(() => expect(updates).toEqual([A]));
    await again.close();
  });

  test("a 2026-07-28 server's ended stream: the host hears its listen end, a new listen subscribes afresh", async () => {
    const { upstream, host } = await setup('modern');
    const { host: opened, client, updates } = await host();
    const subscription = await client.listen({ resourceSubscriptions: [A] });
    upstream.endListens();
    await expect(subscription.closed).resolves.toBe('graceful');
    const again = await client.listen({ resourceSubscriptions: [A] });
    expect(again.honoredFilter).toEqual({ resourceSubscriptions: [A] });
    expect(upstream.subscribed).toBe(2);
    await opened.callTool('update', { uri: A });
    await vi.waitFor(() => expect(updates).toEqual([A]));
    await again.close();
  });
});
