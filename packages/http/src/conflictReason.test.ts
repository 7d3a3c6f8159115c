/**
 * The 409 of an answer that came too late says what happened, where the inbox can tell: answered
 * (by whom), expired, or the asker no longer needs it; and the remote inbox's error carries it.
 */
import { accept, createInbox } from '@waitfor/core';
import type { Inbox } from '@waitfor/core';
import { createStore } from '@waitfor/store';
import type { Store } from '@waitfor/store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInboxHandler } from './handler';
import { createRemoteInbox } from './remoteInbox';
import type { RemoteInbox } from './remoteInbox';
import { ageQuestion, appOrigin, as, startHost } from './__tests__/host';
import type { Host } from './__tests__/host';

const question = (id: string, expiresAt?: string) => ({
  ...ageQuestion(id),
  ...(expiresAt === undefined ? {} : { expiresAt }),
});

/** The handler over one inbox for every caller, called directly (a Web-standard handler). */
function handlerOver(inbox: Inbox, options: { resumeWindowMs?: number } = {}) {
  const handler = createInboxHandler({
    inboxFor: () => inbox,
    authorize: () => 'alice',
    allowedOrigins: [appOrigin],
    ...options,
  });
  return async (id: string, age = 30) => {
    const response = await handler(
      new Request(`http://host.test/requests/${encodeURIComponent(id)}/answer`, {
        method: 'POST',
        headers: { origin: appOrigin, 'content-type': 'application/json' },
        body: JSON.stringify(accept(question(id), { age })),
      }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
}

describe("the 409 says how the question ended (core's in-memory inbox)", () => {
  it('answered: `ended: "answered"` (core names nobody, so no answeredBy)', async () => {
    const inbox = createInbox();
    const post = handlerOver(inbox);
    void inbox.waitFor(question('a'));
    expect(inbox.answer(accept(question('a'), { age: 1 }))).toBe(true);
    expect(await post('a')).toEqual({
      status: 409,
      body: {
        error: 'conflict',
        ended: 'answered',
        message: 'This question was already answered.',
      },
    });
  });

  it('cancelled by the asker, and expired: a late answer while still listed, and one after', async () => {
    let now = Date.UTC(2030, 0, 1);
    const inbox = createInbox({ now: () => now });
    const post = handlerOver(inbox);
    void inbox.waitFor(question('gone'));
    inbox.cancel('gone');
    expect(await post('gone')).toMatchObject({
      status: 409,
      body: { ended: 'cancelled', message: 'The asker no longer needs this answer.' },
    });
    // Still listed when the POST arrives, but its time is up: the submit loses, and says why.
    void inbox.waitFor(question('late', '2030-01-01T00:00:10Z'));
    now += 10_000;
    expect(await post('late')).toMatchObject({
      status: 409,
      body: { ended: 'expired', message: 'This question has expired.' },
    });
    expect(await post('late')).toMatchObject({ status: 409, body: { ended: 'expired' } });
  });

  it('an inbox without `ended` keeps the plain 409; an id nobody asked stays 404', async () => {
    const memory = createInbox();
    const { ended: _ended, ...plain } = memory;
    const post = handlerOver(plain);
    void memory.waitFor(question('a'));
    // The handler's feed sees it listed, then gone.
    expect(await post('unknown')).toMatchObject({ status: 404 });
    await post('a');
    expect(await post('a')).toEqual({
      status: 409,
      body: { error: 'conflict', message: 'This question was already answered, or has ended.' },
    });
  });
});

describe('the handler remembers ended ids for a bounded time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an id that left the feed is 409 for ten minutes, then 404, even while the feed lives on', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2030, 0, 1) });
    // An inbox that cannot say how its questions ended: only the feed's memory answers 409.
    const memory = createInbox();
    const { ended: _ended, ...plain } = memory;
    // The feed is never dropped here, so only the memory's own bound can forget.
    const post = handlerOver(plain, { resumeWindowMs: Infinity });
    void memory.waitFor(question('c'));
    expect(await post('unknown')).toMatchObject({ status: 404 }); // the feed now lists c
    expect(memory.answer(accept(question('c'), { age: 1 }))).toBe(true);
    vi.setSystemTime(Date.UTC(2030, 0, 1, 0, 9, 59));
    expect(await post('c')).toMatchObject({ status: 409 });
    vi.setSystemTime(Date.UTC(2030, 0, 1, 0, 10, 0));
    expect(await post('c')).toMatchObject({ status: 404 });
  });
});

describe("the 409 says how the question ended (@waitfor/store's inbox on PGlite)", () => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it('answered elsewhere names who answered; an aborted wait is cancelled', async () => {
    store = await createStore({ pollMs: 0 });
    const inbox = await store.inbox('alice', { answeredBy: 'page' });
    const post = handlerOver(inbox);
    const controller = new AbortController();
    void inbox.waitFor(question('a'));
    void inbox.waitFor(question('b'), { signal: controller.signal });
    await expect.poll(() => inbox.getSnapshot().length).toBe(2);
    expect(await inbox.submit(accept(question('a'), { age: 2 }), { answeredBy: 'Ada' })).toBe(true);
    expect(await post('a')).toEqual({
      status: 409,
      body: {
        error: 'conflict',
        ended: 'answered',
        answeredBy: 'Ada',
        message: 'This question was already answered.',
      },
    });
    controller.abort();
    await expect.poll(() => inbox.getSnapshot().length).toBe(0);
    expect(await post('b')).toMatchObject({ status: 409, body: { ended: 'cancelled' } });
  });
});

describe('the remote inbox: the 409 it got says how the question ended', () => {
  let host: Host | undefined;
  let remote: RemoteInbox | undefined;
  afterEach(async () => {
    remote?.close();
    await host?.close();
  });

  it('getAnswerError(id) carries `ended` and `answeredBy` from the 409', async () => {
    let storeOfHost: Store | undefined;
    host = await startHost({
      name: 'store inbox naming who answered',
      async open() {
        storeOfHost = await createStore({ pollMs: 0 });
        const inbox = await storeOfHost.inbox('alice');
        return { inboxFor: async () => inbox, close: () => storeOfHost!.close() };
      },
    });
    remote = createRemoteInbox({ url: host.url, headers: as('alice'), retryMs: 20 });
    void host.ask('alice', question('q'));
    await vi.waitFor(() => expect(remote!.getSnapshot().map((open) => open.id)).toEqual(['q']));
    const server = await host.inboxFor('alice');
    // Answered on the server by Ada before this page's answer arrives.
    const submit = server.submit as (answer: unknown, options: object) => Promise<boolean>;
    expect(await submit(accept(question('q'), { age: 1 }), { answeredBy: 'Ada' })).toBe(true);
    expect(await remote.submit(accept(question('q'), { age: 2 }))).toBe(false);
    const error = remote.getAnswerError('q');
    expect(error).toMatchObject({
      code: 'conflict',
      status: 409,
      ended: 'answered',
      answeredBy: 'Ada',
    });
  });
});
