/**
 * A question that leaves a page because it ended elsewhere says how: the feed's change event
 * carries `ended` beside `removed`, and the remote inbox's `ended(id)` says it from the same event
 * that removes the question — over a real Node http server, with core's in-memory inbox and with a
 * store fleet (another host answers) on PGlite and on a real PostgreSQL.
 */
import { accept, createInbox } from '@waitfor/core';
import type { Ended, Inbox, Request as WaitforRequest } from '@waitfor/core';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresForFile } from '../../store/src/__fixtures__/postgresServer';
import { readEvents } from './readEvents';
import { createRemoteInbox } from './remoteInbox';
import type { RemoteInbox } from './remoteInbox';
import { as, startHost } from './__tests__/host';
import type { Host } from './__tests__/host';
import { endingKinds } from './__tests__/endingHosts';
import type { EndingHost } from './__tests__/endingHosts';

const server = postgresForFile();

let next = 0;
const approval = (extra: Partial<WaitforRequest> = {}): WaitforRequest => ({
  id: `trip-${++next}`,
  kind: 'approval',
  prompt: 'Book the trip?',
  ...extra,
});

const remotes: RemoteInbox[] = [];
const page = (url: string, options: { now?: () => number } = {}): RemoteInbox => {
  const inbox = createRemoteInbox({ url, headers: as('alice'), retryMs: 20, ...options });
  remotes.push(inbox);
  return inbox;
};
afterEach(() => {
  for (const inbox of remotes.splice(0)) inbox.close();
});

/** Resolves with what `remote.ended(id)` says in the very change that removes `id` from its list. */
function endedAsItLeaves(remote: RemoteInbox, id: string): Promise<Ended | undefined> {
  return new Promise((resolve) => {
    const stop = remote.subscribe(() => {
      if (remote.getSnapshot().some((open) => open.id === id)) return;
      stop();
      resolve(remote.ended(id));
    });
  });
}

/** Waits until the page lists `id`. */
const listed = (remote: RemoteInbox, id: string) =>
  expect.poll(() => remote.getSnapshot().map((open) => open.id)).toContain(id);

describe.each(endingKinds(server))('$name: the page is told how a question ended', (kind) => {
  let ending: EndingHost | undefined;
  afterEach(async () => {
    for (const inbox of remotes.splice(0)) inbox.close();
    await ending?.close();
    ending = undefined;
  });

  it('answered on another page (another host): `answered`, by whom, when its row says', async () => {
    ending = await kind.start();
    const remote = page(ending.host.url);
    const request = approval();
    const waiting = ending.asker.waitFor(request);
    await listed(remote, request.id);
    expect(remote.ended(request.id)).toBeUndefined();
    const leaves = endedAsItLeaves(remote, request.id);
    expect(await ending.answerElsewhere(accept(request))).toBe(true);
    await expect(waiting).resolves.toMatchObject({ ok: true });
    const said = await leaves;
    expect(said).toMatchObject({ reason: 'answered' });
    expect(said?.answeredBy).toBe(ending.answeredBy);
    const at = await ending.endedAt(request.id);
    if (at !== undefined) expect(said?.at).toBe(at);
    // The same object on every look, as core's inbox gives.
    expect(remote.ended(request.id)).toBe(said);
  });

  it('expired: the question ran out of time where it was asked', async () => {
    ending = await kind.start();
    const remote = page(ending.host.url);
    // The asker's own timer ends it; the test waits for that, no sleep decides it.
    const request = approval({ expiresAt: new Date(Date.now() + 400).toISOString() });
    const waiting = ending.asker.waitFor(request);
    await listed(remote, request.id);
    const leaves = endedAsItLeaves(remote, request.id);
    await expect(waiting).resolves.toMatchObject({ ok: false, reason: 'expired' });
    expect(await leaves).toMatchObject({ reason: 'expired' });
    expect((await leaves)?.answeredBy).toBeUndefined();
  });

  it("cancelled: the asker's abort", async () => {
    ending = await kind.start();
    const remote = page(ending.host.url);
    const controller = new AbortController();
    const request = approval();
    const waiting = ending.asker.waitFor(request, { signal: controller.signal });
    await listed(remote, request.id);
    const leaves = endedAsItLeaves(remote, request.id);
    controller.abort();
    await expect(waiting).resolves.toMatchObject({ ok: false, reason: 'cancelled' });
    expect(await leaves).toMatchObject({ reason: 'cancelled' });
  });

  it("this page's own answer, and one that lost (409): `answered`, as the server said", async () => {
    ending = await kind.start();
    const remote = page(ending.host.url);
    const mine = approval();
    const theirs = approval();
    void ending.asker.waitFor(mine);
    void ending.asker.waitFor(theirs);
    await listed(remote, theirs.id);
    expect(await remote.submit(accept(mine))).toBe(true);
    await expect.poll(() => remote.ended(mine.id)).toMatchObject({ reason: 'answered' });
    // Answered elsewhere; this page has not heard when its own answer goes out.
    remote.close();
    expect(await ending.answerElsewhere(accept(theirs))).toBe(true);
    expect(await remote.submit(accept(theirs))).toBe(false);
    expect(remote.ended(theirs.id)).toMatchObject({ reason: 'answered' });
    expect(remote.ended(theirs.id)?.answeredBy).toBe(ending.answeredBy);
  });
});

describe('the wire: `ended` beside `removed`, replayed on resume, never waited for', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  /** Opens the event stream (resuming after `lastEventId`) and reads its first `count` events. */
  async function eventsOf(url: string, count: number, lastEventId?: string) {
    const controller = new AbortController();
    const response = await fetch(`${url}/events`, {
      headers: { ...as('alice'), ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: controller.signal,
    });
    const events = [];
    for await (const event of readEvents(response.body!, 1 << 20)) {
      events.push({ ...event, data: JSON.parse(event.data) as Record<string, unknown> });
      if (events.length === count) break;
    }
    controller.abort();
    return events;
  }

  it('a change missed while the stream was down is replayed with how its questions ended', async () => {
    const inbox = createInbox();
    host = await startHost({
      name: 'in-memory inbox',
      open: async () => ({ inboxFor: async () => inbox, close: async () => {} }),
    });
    const kept = approval();
    const gone = approval();
    void inbox.waitFor(kept);
    void inbox.waitFor(gone);
    const [snapshot] = await eventsOf(host.url, 1);
    expect(snapshot!.event).toBe('snapshot');
    inbox.cancel(gone.id);
    const [change] = await eventsOf(host.url, 1, snapshot!.id);
    expect(change!.event).toBe('change');
    const at = inbox.ended(gone.id)!.at;
    // An older page reads `added` and `removed` as before and ignores `ended`.
    expect(change!.data).toEqual({
      added: [],
      removed: [gone.id],
      ended: { [gone.id]: { reason: 'cancelled', at } },
    });
  });

  it.each([
    ['never settles', () => new Promise<Ended | undefined>(() => {})],
    ['fails', () => Promise.reject(new Error('the database is down'))],
    [
      'throws',
      (): Ended | undefined => {
        throw new Error('broken');
      },
    ],
  ])(
    'an inbox whose `ended` %s: the removal goes at once, without `ended`',
    async (_name, ended) => {
      const memory = createInbox();
      const inbox: Inbox = { ...memory, ended };
      host = await startHost({
        name: 'slow ended',
        open: async () => ({ inboxFor: async () => inbox, close: async () => {} }),
      });
      const request = approval();
      void inbox.waitFor(request);
      const [snapshot] = await eventsOf(host.url, 1);
      inbox.cancel(request.id);
      const [change] = await eventsOf(host.url, 1, snapshot!.id);
      expect(change!.data).toEqual({ added: [], removed: [request.id] });
      const remote = page(host.url);
      void memory.waitFor(approval({ id: 'after' }));
      await listed(remote, 'after');
      expect(remote.ended(request.id)).toBeUndefined();
    },
  );
});
