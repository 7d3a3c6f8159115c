/**
 * An answer's body has a read deadline (`bodyTimeoutMs`, default 10 s): a body under the size cap
 * that never ends is refused with 408 and answers nothing, instead of holding the connection until
 * Node's own 300 s request timeout. Fake clock against the handler itself, then a real slow client
 * (a raw socket that stops mid-body) against a real Node server.
 */
import { connect } from 'node:net';
import { accept, createInbox, type Answer, type Inbox } from '@waitfor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appOrigin, as, inboxKinds, startHost, tokens, type Host } from './__tests__/host';
import { createInboxHandler, type InboxHandlerOptions } from './handler';

const question = { id: 'q1', kind: 'approval', prompt: 'Go ahead?' };
const answerJson = JSON.stringify(accept(question));

/** A handler on one in-memory inbox (alice's) and the answer its question got, if any. */
function handlerOn(options: Partial<InboxHandlerOptions> = {}) {
  const inbox: Inbox = createInbox();
  let answered: Answer | undefined;
  void inbox.waitFor(question).then((answer) => (answered = answer));
  const handler = createInboxHandler({
    inboxFor: () => inbox,
    authorize: (request) =>
      request.headers.get('authorization') === `Bearer ${tokens.alice}` ? 'alice' : null,
    allowedOrigins: [appOrigin],
    ...options,
  });
  return { inbox, handler, answered: () => answered };
}

/** A POST of an answer whose body sends `chunks`, then stays open (never ends) unless `end`. */
function answerPost(chunks: string[], end = false): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      if (end) controller.close();
    },
  });
  return new Request('http://inbox.test/requests/q1/answer', {
    method: 'POST',
    headers: { ...as('alice'), 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
}

/** Whether `promise` has settled by now, without waiting for it. */
const settledNow = async <T>(promise: Promise<T>): Promise<T | 'pending'> =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setImmediate(resolve, 'pending'))]);

describe('the read deadline on an answer body (fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['half an answer', [answerJson.slice(0, 10)]],
    // The whole JSON, but the body never ends: not read as if whole.
    ['a whole answer whose body never ends', [answerJson]],
  ])('%s: refused with 408 at 10 s by default, nothing answered', async (_name, chunks) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { inbox, handler, answered } = handlerOn();
    const response = handler(answerPost(chunks));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(await settledNow(response)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const refused = await settledNow(response);
    expect(refused !== 'pending' && refused.status).toBe(408);
    expect(await (refused as Response).json()).toMatchObject({ error: 'unavailable' });
    expect(answered()).toBeUndefined();
    expect(inbox.getSnapshot().map((request) => request.id)).toEqual(['q1']);
  });

  it('is configurable, and a body that ends in time is answered', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const slow = handlerOn({ bodyTimeoutMs: 500 });
    const response = slow.handler(answerPost([answerJson]));
    await vi.advanceTimersByTimeAsync(500);
    const refused = await settledNow(response);
    expect(refused !== 'pending' && refused.status).toBe(408);

    const inTime = handlerOn({ bodyTimeoutMs: 500 });
    const answeredResponse = await inTime.handler(answerPost([answerJson], true));
    expect(answeredResponse.status).toBe(200);
    // The deadline was stopped when the body ended: passing it later changes nothing.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(inTime.answered()).toEqual({ id: 'q1', ok: true });
  });

  it('bodyTimeoutMs Infinity: no deadline', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { handler } = handlerOn({ bodyTimeoutMs: Infinity });
    const response = handler(answerPost([answerJson.slice(0, 5)]));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(await settledNow(response)).toBe('pending');
  });
});

describe('the read deadline against a real slow client', () => {
  let host: Host | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('a socket that stops mid-body gets 408 and is closed', async () => {
    host = await startHost(inboxKinds[0]!, { bodyTimeoutMs: 200 });
    const asked = host.ask('alice', question);
    const url = new URL(`${host.url}/requests/q1/answer`);
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      [
        `POST ${url.pathname} HTTP/1.1`,
        `host: ${url.host}`,
        `authorization: Bearer ${tokens.alice}`,
        `origin: ${appOrigin}`,
        'content-type: application/json',
        `content-length: ${answerJson.length + 10}`,
        '',
        answerJson.slice(0, 10),
      ].join('\r\n'),
    );
    // The server's deadline decides: the socket closes once the 408 is sent.
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toMatch(/did not arrive within 200 ms/);
    // Nothing was answered: the question is still open.
    expect(await settledNow(asked)).toBe('pending');
    expect((await host.inboxFor('alice')).getSnapshot().map((request) => request.id)).toEqual([
      'q1',
    ]);
  });
});
