import { accept } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readEvents } from './readEvents';
import { ageQuestion, appOrigin, as, inboxKinds, startHost } from './__tests__/host';
import type { Host } from './__tests__/host';

// Every refusal is checked against a real Node http server, over real fetch, and every one leaves
// the question open: the same for core's in-memory inbox and the store's.
describe.each(inboxKinds)('the endpoint, with the $name', (kind) => {
  let host: Host;
  const answered: Record<string, unknown> = {};
  const ask = (scope: string, id: string): void => {
    void host.ask(scope, ageQuestion(id)).then((answer) => (answered[id] = answer));
  };
  const openIds = async (scope: string): Promise<string[]> =>
    (await host.inboxFor(scope)).getSnapshot().map((request) => request.id);
  const post = (id: string, body: BodyInit, headers: Record<string, string>) =>
    fetch(`${host.url}/requests/${encodeURIComponent(id)}/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  beforeAll(async () => {
    host = await startHost(kind);
    ask('alice', 'alice-1');
    ask('bob', 'bob-1');
    await vi.waitFor(async () => {
      expect(await openIds('alice')).toEqual(['alice-1']);
      expect(await openIds('bob')).toEqual(['bob-1']);
    });
  });
  afterAll(() => host?.close());

  it('answers 401 without credentials, on every route', async () => {
    expect((await fetch(`${host.url}/requests`)).status).toBe(401);
    expect((await fetch(`${host.url}/events`)).status).toBe(401);
    const wrong = { authorization: 'Bearer forged', origin: appOrigin };
    expect((await fetch(`${host.url}/requests`, { headers: wrong })).status).toBe(401);
    const response = await post(
      'alice-1',
      JSON.stringify(accept(ageQuestion('alice-1'), { age: 3 })),
      {
        origin: appOrigin,
      },
    );
    expect(response.status).toBe(401);
    expect(await openIds('alice')).toEqual(['alice-1']);
  });

  it("lists only the caller's scope", async () => {
    const response = await fetch(`${host.url}/requests`, { headers: as('alice') });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { requests: Array<{ id: string }> };
    expect(body.requests.map((request) => request.id)).toEqual(['alice-1']);
  });

  it("answers 404 for another scope's question, and it stays open", async () => {
    const response = await post(
      'bob-1',
      JSON.stringify(accept(ageQuestion('bob-1'), { age: 30 })),
      as('alice'),
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
    expect(await openIds('bob')).toEqual(['bob-1']);
    expect(answered['bob-1']).toBeUndefined();
  });

  it('refuses a cross-origin answer (403), a missing Origin too, and a form post (415)', async () => {
    const body = JSON.stringify(accept(ageQuestion('alice-1'), { age: 30 }));
    const foreign = await post('alice-1', body, { ...as('alice'), origin: 'http://evil.test' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const { origin: _origin, ...noOrigin } = as('alice');
    expect((await post('alice-1', body, noOrigin)).status).toBe(403);
    const form = await fetch(`${host.url}/requests/alice-1/answer`, {
      method: 'POST',
      headers: { ...as('alice'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'id=alice-1&ok=true',
    });
    expect(form.status).toBe(415);
    expect(await openIds('alice')).toEqual(['alice-1']);
  });

  it('refuses a read from a foreign Origin (403); CORS only for the allowed one', async () => {
    const foreign = { ...as('alice'), origin: 'http://evil.test' };
    const list = await fetch(`${host.url}/requests`, { headers: foreign });
    expect(list.status).toBe(403);
    expect(list.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${host.url}/events`, { headers: foreign })).status).toBe(403);
    const preflight = (origin: string) =>
      fetch(`${host.url}/requests/alice-1/answer`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
    expect(
      (await preflight('http://evil.test')).headers.get('access-control-allow-origin'),
    ).toBeNull();
    const allowed = await preflight(appOrigin);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(appOrigin);
    expect(allowed.headers.get('access-control-allow-methods')).toBe('POST');
  });

  it('refuses a 1 MB body (413), declared or streamed without a length', async () => {
    const big = JSON.stringify({ id: 'alice-1', ok: true, data: { age: 'x'.repeat(1024 * 1024) } });
    expect((await post('alice-1', big, as('alice'))).status).toBe(413);
    // No Content-Length: the body is read until it passes the limit, then refused.
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 16) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await fetch(`${host.url}/requests/alice-1/answer`, {
      method: 'POST',
      headers: { ...as('alice'), 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(await openIds('alice')).toEqual(['alice-1']);
  });

  it('answers 400 for malformed JSON, a malformed Answer or another id, with nothing changed', async () => {
    for (const body of [
      '{"id": "alice-1", "ok": tru',
      JSON.stringify({ id: 'alice-1', ok: 'yes' }),
      JSON.stringify({ id: 'alice-1', ok: false }),
      JSON.stringify(accept(ageQuestion('bob-1'), { age: 30 })),
      '\u0000',
    ]) {
      const response = await post('alice-1', body, as('alice'));
      expect(response.status, body).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_answer' });
    }
    expect(await openIds('alice')).toEqual(['alice-1']);
    expect(await openIds('bob')).toEqual(['bob-1']);
  });

  it("answers 422 with the form's per-field errors, with nothing changed", async () => {
    const response = await post(
      'alice-1',
      JSON.stringify(accept(ageQuestion('alice-1'), { age: 400 })),
      as('alice'),
    );
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; errors: Record<string, string> };
    expect(body.error).toBe('invalid_form');
    expect(Object.keys(body.errors)).toEqual(['age']);
    expect(await openIds('alice')).toEqual(['alice-1']);
  });

  it('leaks nothing of another scope to a forged Last-Event-ID', async () => {
    // Alice's real event id, and forged ones, sent by Bob: each gets Bob's own snapshot.
    const alicesId = await firstEventId(host.url, as('alice'), null);
    for (const forged of [
      alicesId,
      '0.0',
      'zzz.999999',
      alicesId.replace(/\.\d+$/, '.0'),
      'x'.repeat(5000),
    ]) {
      const events = await firstEvents(host.url, as('bob'), forged);
      expect(events.map((event) => event.event)).toEqual(['snapshot']);
      expect(events[0]!.data).not.toContain('alice');
      expect(JSON.parse(events[0]!.data)).toEqual({
        requests: [expect.objectContaining({ id: 'bob-1' })],
      });
    }
  });

  it('answers, then 409 for the same question answered again', async () => {
    const answer = JSON.stringify(accept(ageQuestion('alice-1'), { age: 30 }));
    const first = await post('alice-1', answer, as('alice'));
    expect(first.status).toBe(200);
    await vi.waitFor(() =>
      expect(answered['alice-1']).toMatchObject({ ok: true, data: { age: 30 } }),
    );
    const again = await post('alice-1', answer, as('alice'));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: 'conflict' });
  });
});

/** Opens the event stream and returns its first event's id. */
async function firstEventId(
  url: string,
  headers: Record<string, string>,
  lastEventId: string | null,
): Promise<string> {
  const [event] = await firstEvents(url, headers, lastEventId);
  return event!.id!;
}

/** The events that arrive first on a (re)connecting stream, read until the first one. */
async function firstEvents(
  url: string,
  headers: Record<string, string>,
  lastEventId: string | null,
) {
  const controller = new AbortController();
  const response = await fetch(`${url}/events`, {
    headers: { ...headers, ...(lastEventId === null ? {} : { 'last-event-id': lastEventId }) },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const events = [];
  for await (const event of readEvents(response.body!, 1 << 20)) {
    events.push(event);
    break;
  }
  controller.abort();
  return events;
}
