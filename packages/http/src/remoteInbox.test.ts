import { accept } from '@waitfor/core';
import type { Request as WaitforRequest } from '@waitfor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRemoteInbox } from './remoteInbox';
import type { ConnectionState, RemoteInbox } from './remoteInbox';
import { HttpInboxError } from './httpError';
import { ageQuestion, as, inboxKinds, startHost } from './__tests__/host';
import type { Host } from './__tests__/host';

const ids = (inbox: RemoteInbox): string[] => inbox.getSnapshot().map((request) => request.id);

/** Waits (on real I/O turns, not on a clock) until `done()` holds; a test's timeout ends a hang. */
async function settled(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

describe.each(inboxKinds)('the remote inbox (Node fetch), with the $name', (kind) => {
  let host: Host;
  const remotes: RemoteInbox[] = [];
  const remote = (scope: 'alice' | 'bob' = 'alice'): RemoteInbox => {
    const inbox = createRemoteInbox({ url: host.url, headers: as(scope), retryMs: 20 });
    remotes.push(inbox);
    return inbox;
  };
  const asked = (request: WaitforRequest) => host.ask('alice', request);
  afterEach(async () => {
    for (const inbox of remotes.splice(0)) inbox.close();
    await host?.close();
  });

  it('two inboxes on one scope: an answer in one leaves the other, and the asker gets it', async () => {
    host = await startHost(kind);
    const [first, second] = [remote(), remote()];
    const answer = asked(ageQuestion('q1'));
    await vi.waitFor(() => {
      expect(ids(first)).toEqual(['q1']);
      expect(ids(second)).toEqual(['q1']);
    });
    expect(first.get('q1')).toEqual(ageQuestion('q1'));
    let notified = 0;
    second.subscribe(() => notified++);
    expect(first.answer(accept(ageQuestion('q1'), { age: 41 }))).toBe(true);
    // Shown as sent at once, before the server confirms.
    expect(ids(first)).toEqual([]);
    await vi.waitFor(() => expect(ids(second)).toEqual([]));
    expect(notified).toBeGreaterThan(0);
    expect(await answer).toMatchObject({ id: 'q1', ok: true, data: { age: 41 } });
    expect(first.getAnswerError('q1')).toBeUndefined();
  });

  it('a throwing listener stops neither the next listener nor the inbox, and is reported to onError', async () => {
    host = await startHost(kind);
    const reported: HttpInboxError[] = [];
    const inbox = createRemoteInbox({
      url: host.url,
      headers: as('alice'),
      retryMs: 20,
      onError: (error) => reported.push(error),
    });
    remotes.push(inbox);
    const failure = new Error('a broken view');
    inbox.subscribe(() => {
      throw failure;
    });
    inbox.subscribeConnection(() => {
      throw failure;
    });
    const seen: string[][] = [];
    inbox.subscribe(() => seen.push(ids(inbox)));
    const answer = asked(ageQuestion('q-listener'));
    await vi.waitFor(() => expect(ids(inbox)).toEqual(['q-listener']));
    expect(seen).toContainEqual(['q-listener']);
    expect(await inbox.submit(accept(ageQuestion('q-listener'), { age: 3 }))).toBe(true);
    expect(await answer).toMatchObject({ id: 'q-listener', ok: true, data: { age: 3 } });
    // Both kinds of listener were reported, each as listener_failed with what it threw.
    expect(reported.length).toBeGreaterThan(1);
    for (const error of reported)
      expect([error.code, error.cause]).toEqual(['listener_failed', failure]);
  });

  it('drops a question on 409 (answered elsewhere first): it has ended; the error says so', async () => {
    host = await startHost(kind);
    const slow = remote();
    void asked(ageQuestion('q2'));
    await vi.waitFor(() => expect(ids(slow)).toEqual(['q2']));
    // Answered on the server before this page's answer arrives; the page has not heard yet.
    slow.close();
    expect(
      (await (await host.inboxFor('alice')).submit?.(accept(ageQuestion('q2'), { age: 1 }))) ??
        (await host.inboxFor('alice')).answer(accept(ageQuestion('q2'), { age: 1 })),
    ).toBe(true);
    const seen: string[][] = [];
    slow.subscribe(() => seen.push(ids(slow)));
    expect(await slow.submit(accept(ageQuestion('q2'), { age: 2 }))).toBe(false);
    // Sent (hidden), and not back: the server says it ended, so nothing here can answer it.
    expect(seen[0]).toEqual([]);
    expect(ids(slow)).toEqual([]);
    const error = slow.getAnswerError('q2');
    expect(HttpInboxError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'conflict', status: 409 });
    expect(error!.message).toMatch(/already answered/);
  });

  it('rolls back a form answer the server refuses (422), with per-field errors', async () => {
    host = await startHost(kind);
    const inbox = remote();
    void asked(ageQuestion('q3'));
    await vi.waitFor(() => expect(ids(inbox)).toEqual(['q3']));
    expect(await inbox.submit(accept(ageQuestion('q3'), { age: -5 }))).toBe(false);
    expect(ids(inbox)).toEqual(['q3']);
    expect(inbox.getAnswerError('q3')).toMatchObject({ code: 'invalid_form', status: 422 });
    expect(Object.keys(inbox.getAnswerError('q3')!.errors!)).toEqual(['age']);
    // The next answer clears the message.
    expect(await inbox.submit(accept(ageQuestion('q3'), { age: 5 }))).toBe(true);
    expect(inbox.getAnswerError('q3')).toBeUndefined();
  });

  it('reconnects after the server closes its streams (reconnecting → connected) and catches up', async () => {
    host = await startHost(kind);
    // Real fetch, held back while the test says so: the question below is asked while disconnected.
    let gate = Promise.resolve();
    const resumedFrom: Array<string | null> = [];
    const inbox = createRemoteInbox({
      url: host.url,
      headers: as('alice'),
      retryMs: 20,
      fetch: async (url, init) => {
        if (String(url).endsWith('/events')) {
          await gate;
          resumedFrom.push(new Headers(init?.headers).get('last-event-id'));
        }
        return fetch(url, init);
      },
    });
    remotes.push(inbox);
    const states: ConnectionState[] = [inbox.getConnectionState()];
    inbox.subscribeConnection(() => states.push(inbox.getConnectionState()));
    void asked(ageQuestion('q4'));
    await vi.waitFor(() => expect(ids(inbox)).toEqual(['q4']));
    expect(inbox.getConnectionState()).toBe('connected');

    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    host.handler.closeStreams();
    await vi.waitFor(() => expect(inbox.getConnectionState()).toBe('reconnecting'));
    void asked(ageQuestion('q5'));
    await vi.waitFor(async () => expect((await host.inboxFor('alice')).get('q5')).toBeDefined());
    expect(ids(inbox)).toEqual(['q4']);
    release();
    await vi.waitFor(() => expect(ids(inbox)).toEqual(['q4', 'q5']));
    expect(inbox.getConnectionState()).toBe('connected');
    expect(states).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    // It resumed from the last event it had seen.
    expect(resumedFrom).toHaveLength(2);
    expect(resumedFrom[0]).toBeNull();
    expect(resumedFrom[1]).toMatch(/^[0-9a-z]+\.\d+$/);
  });

  it('takes a silent stream for dead and reconnects; heartbeats keep a live one', async () => {
    // No heartbeat for a minute: a client that waits 100 ms for a sign of life reconnects.
    host = await startHost(kind, { heartbeatMs: 60_000 });
    const silent = createRemoteInbox({
      url: host.url,
      headers: as('alice'),
      retryMs: 20,
      idleMs: 100,
    });
    remotes.push(silent);
    const states: ConnectionState[] = [];
    silent.subscribeConnection(() => states.push(silent.getConnectionState()));
    await vi.waitFor(() => expect(states.join()).toContain('connected,reconnecting,connected'));
    silent.close();
    await host.close();

    // Heartbeats every 20 ms: the same client stays on its one stream well past its idle time. On a
    // fake clock (the server's heartbeats and the client's idle timer both), moved 20 ms at a time
    // and only after the last beat arrived, so a busy machine cannot stretch a gap past idleMs.
    host = await startHost(kind, { heartbeatMs: 20 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let streams = 0;
    let beats = 0;
    const live = createRemoteInbox({
      url: host.url,
      headers: as('alice'),
      retryMs: 20,
      idleMs: 150,
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (!String(url).endsWith('/events')) return response;
        streams++;
        const counted = response.body!.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              beats += new TextDecoder().decode(chunk).split(': heartbeat').length - 1;
              controller.enqueue(chunk);
            },
          }),
        );
        return new Response(counted, { status: response.status, headers: response.headers });
      },
    });
    remotes.push(live);
    try {
      await settled(() => live.getConnectionState() === 'connected');
      // 30 heartbeats are 600 ms of the clock, four idle periods.
      for (let beat = 1; beat <= 30; beat++) {
        await vi.advanceTimersByTimeAsync(20);
        await settled(() => beats >= beat);
      }
    } finally {
      vi.useRealTimers();
    }
    expect(streams).toBe(1);
    expect(live.getConnectionState()).toBe('connected');
  });

  it('keeps reconnecting while unauthorized, with the reason readable', async () => {
    host = await startHost(kind);
    const inbox = createRemoteInbox({
      url: host.url,
      headers: { origin: 'http://app.test' },
      retryMs: 20,
    });
    remotes.push(inbox);
    await vi.waitFor(() =>
      expect(inbox.getConnectionError()).toMatchObject({ code: 'unauthorized' }),
    );
    expect(inbox.getConnectionState()).toBe('reconnecting');
    inbox.close();
    expect(inbox.getConnectionState()).toBe('closed');
  });

  it('cancels through a detached method: an answer { ok: false, reason: cancelled }', async () => {
    host = await startHost(kind);
    const { cancel, getSnapshot } = remote();
    const answer = asked(ageQuestion('q7'));
    await vi.waitFor(() => expect(getSnapshot().map((request) => request.id)).toEqual(['q7']));
    expect(cancel('q7')).toBe(true);
    await expect(answer).resolves.toMatchObject({ id: 'q7', ok: false, reason: 'cancelled' });
    expect(cancel('q7')).toBe(false);
  });

  it('cannot ask: waitFor rejects with unsupported', async () => {
    host = await startHost(kind);
    await expect(remote().waitFor(ageQuestion('q6'))).rejects.toMatchObject({
      code: 'unsupported',
    });
  });
});
