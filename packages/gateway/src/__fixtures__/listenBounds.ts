/**
 * The resource listen bounds as a 2026-07-28 host sees them, whatever the transport (HTTP,
 * stdio): a listen naming `asked` URIs (past 32) and one naming a URI over 2048 characters are
 * refused in band before anything is subscribed upstream, and the refused listens gave their places
 * back: a fitting one is served and subscribed.
 */
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { expect, vi } from 'vitest';
import type { UpdatingHttpServer } from './updatingServer';

export async function expectListenBounds(
  client: V2Client,
  upstream: UpdatingHttpServer,
  asked: number,
): Promise<void> {
  const many = Array.from({ length: asked }, (_, index) => `updating://many/${index}`);
  await expect(client.listen({ resourceSubscriptions: many })).rejects.toThrow(
    /limit reached \(32 URIs per listen\)/,
  );
  await expect(
    client.listen({ resourceSubscriptions: [`updating://${'x'.repeat(2048)}`] }),
  ).rejects.toThrow(/longer than 2048/);
  expect(upstream.subscribed).toBe(0);
  const fits = await client.listen({ resourceSubscriptions: many.slice(0, 32) });
  expect(fits.honoredFilter.resourceSubscriptions).toHaveLength(32);
  expect(upstream.subscribed).toBe(32);
  await fits.close();
  await vi.waitFor(() => expect(upstream.subscribers(many[0]!)).toBe(0));
}
