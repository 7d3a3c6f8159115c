import { accept } from '@waitfor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readEvents } from './readEvents';
import type { ServerSentEvent } from './readEvents';
import { ageQuestion, as, inboxKinds, startHost } from './__tests__/host';
import type { Host } from './__tests__/host';

/** An open event stream, its events collected as they arrive. */
async function openStream(host: Host, headers: Record<string, string>, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(`${host.url}/events`, {
    headers: { ...headers, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: controller.signal,
  });
  const events: ServerSentEvent[] = [];
  let heartbeats = 0;
  // Counts comment lines too, by reading raw text alongside the parser.
  const [forEvents, forRaw] = response.body!.tee();
  const done = (async () => {
    try {
      for await (const event of readEvents(forEvents, 1 << 20)) events.push(event);
    } catch {
      // Aborted by the test.
    }
  })();
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of forRaw as unknown as AsyncIterable<Uint8Array>)
        heartbeats += decoder.decode(chunk).split(': heartbeat').length - 1;
    } catch {
      // Aborted by the test.
    }
  })();
  return {
    status: response.status,
    events,
    heartbeats: () => heartbeats,
    data: (index: number) => JSON.parse(events[index]!.data) as Record<string, unknown>,
    close: () => controller.abort(),
    done,
  };
}

describe.each(inboxKinds)('the event stream, with the $name', (kind) => {
  let host: Host;
  afterEach(() => host?.close());

  it('sends a snapshot, then each change with its id; resumes with what changed since', async () => {
    host = await startHost(kind);
    void host.ask('alice', ageQuestion('a1'));
    await vi.waitFor(async () => expect((await host.inboxFor('alice')).get('a1')).toBeDefined());
    const first = await openStream(host, as('alice'));
    await vi.waitFor(() => expect(first.events).toHaveLength(1));
    expect(first.events[0]!.event).toBe('snapshot');
    expect(first.data(0)).toEqual({ requests: [ageQuestion('a1')] });

    void host.ask('alice', ageQuestion('a2'));
    await vi.waitFor(() => expect(first.events).toHaveLength(2));
    expect(first.events[1]!.event).toBe('change');
    expect(first.data(1)).toEqual({ added: [ageQuestion('a2')], removed: [] });
    const seenUpTo = first.events[1]!.id!;
    first.close();

    // While nobody listens, a1 is answered and a3 asked: the resume sends exactly those changes.
    expect((await host.inboxFor('alice')).answer(accept(ageQuestion('a1'), { age: 9 }))).toBe(true);
    void host.ask('alice', ageQuestion('a3'));
    await vi.waitFor(async () =>
      expect((await host.inboxFor('alice')).getSnapshot().map((request) => request.id)).toEqual([
        'a2',
        'a3',
      ]),
    );
    const resumed = await openStream(host, as('alice'), seenUpTo);
    await vi.waitFor(() => expect(resumed.events.length).toBeGreaterThanOrEqual(2));
    expect(resumed.events.map((event) => event.event)).toEqual(['change', 'change']);
    const removed = resumed.events.flatMap((_, index) => resumed.data(index).removed as string[]);
    const added = resumed.events.flatMap((_, index) =>
      (resumed.data(index).added as Array<{ id: string }>).map((request) => request.id),
    );
    expect({ removed, added }).toEqual({ removed: ['a1'], added: ['a3'] });
    resumed.close();
  });

  it('sends a fresh snapshot for an id older than the kept changes', async () => {
    host = await startHost(kind, { maxLoggedChanges: 2 });
    const stream = await openStream(host, as('alice'));
    await vi.waitFor(() => expect(stream.events).toHaveLength(1));
    const old = stream.events[0]!.id!;
    for (const id of ['b1', 'b2', 'b3']) void host.ask('alice', ageQuestion(id));
    await vi.waitFor(async () =>
      expect((await host.inboxFor('alice')).getSnapshot()).toHaveLength(3),
    );
    stream.close();
    const resumed = await openStream(host, as('alice'), old);
    await vi.waitFor(() => expect(resumed.events).toHaveLength(1));
    expect(resumed.events[0]!.event).toBe('snapshot');
    expect((resumed.data(0).requests as unknown[]).length).toBe(3);
    resumed.close();
  });

  it('holds no subscription once the clients are gone (after the resume window)', async () => {
    host = await startHost(kind, { resumeWindowMs: 50 });
    const streams = await Promise.all([1, 2, 3].map(() => openStream(host, as('alice'))));
    await vi.waitFor(() => streams.forEach((stream) => expect(stream.events).toHaveLength(1)));
    // One subscription for the scope, however many streams.
    expect(host.subscribers('alice')).toBe(1);
    for (const stream of streams) stream.close();
    await vi.waitFor(() => expect(host.subscribers('alice')).toBe(0));
  });

  it('refuses a stream over the per-scope limit (429), and another scope is not affected', async () => {
    host = await startHost(kind, { maxStreamsPerScope: 2 });
    const open = [await openStream(host, as('alice')), await openStream(host, as('alice'))];
    await vi.waitFor(() => open.forEach((stream) => expect(stream.events).toHaveLength(1)));
    const third = await fetch(`${host.url}/events`, { headers: as('alice') });
    expect(third.status).toBe(429);
    const bobs = await openStream(host, as('bob'));
    expect(bobs.status).toBe(200);
    // A closed stream frees its place.
    open[0]!.close();
    await vi.waitFor(async () => {
      const again = await openStream(host, as('alice'));
      again.close();
      expect(again.status).toBe(200);
    });
    open[1]!.close();
    bobs.close();
  });

  it('sends heartbeats on a quiet stream', async () => {
    host = await startHost(kind, { heartbeatMs: 20 });
    const stream = await openStream(host, as('alice'));
    await vi.waitFor(() => expect(stream.heartbeats()).toBeGreaterThanOrEqual(2));
    stream.close();
  });
});

it('closes a stream whose client stops reading once it is maxQueuedBytes behind', async () => {
  const host = await startHost(inboxKinds[0]!, {
    maxStreamsPerScope: 1,
    maxQueuedBytes: 64 * 1024,
  });
  try {
    // Opened and never read: the socket, then the stream's queue, fill up.
    const stalled = await fetch(`${host.url}/events`, { headers: as('alice') });
    expect(stalled.status).toBe(200);
    expect((await fetch(`${host.url}/events`, { headers: as('alice') })).status).toBe(429);
    const prompt = 'x'.repeat(16 * 1024);
    let asked = 0;
    // Changes keep coming until the stalled stream is dropped and its place is free again.
    await vi.waitFor(
      async () => {
        for (let index = 0; index < 200; index++)
          void host.ask('alice', { id: `big-${asked++}`, kind: 'question', prompt });
        const next = await fetch(`${host.url}/events`, { headers: as('alice') });
        await next.body?.cancel();
        expect(next.status).toBe(200);
      },
      { timeout: 30_000, interval: 50 },
    );
    await stalled.body?.cancel();
  } finally {
    await host.close();
  }
});
