import { describe, expect, it } from 'vitest';
import { useHostedExample } from './hostedProcess.js';

describe("the hosted mode's /api, against the running host", () => {
  const hosted = useHostedExample('waitfor-hosted-api-');

  const api = (path: string, init: RequestInit = {}) =>
    fetch(new URL(path, hosted.example.url), init);
  const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
    api(path, {
      method: 'POST',
      body,
      headers: { origin: hosted.origin, 'content-type': 'application/json', ...headers },
    });
  const calls = async () =>
    ((await (await api('/api/calls')).json()) as { calls: { id: string; status: string }[] }).calls;

  it('lists both servers connected, with their tools, and this app', async () => {
    const body = (await (await api('/api/servers')).json()) as {
      servers: { name: string; state: string; tools: unknown[] }[];
    };
    expect(body.servers.map(({ name, state }) => [name, state])).toEqual([
      ['Travel Desk', 'connected'],
      ['Deploy Console', 'connected'],
      ['This app', 'connected'],
    ]);
    expect(hosted.example.mode).toBe('hosted');
  });

  it('refuses a foreign Origin, a POST without one, a non-JSON type, 1 MB, malformed JSON — nothing started', async () => {
    expect((await api('/api/calls', { headers: { origin: 'https://evil.example' } })).status).toBe(
      403,
    );
    expect(
      (await api('/api/inbox/requests', { headers: { origin: 'https://evil.example' } })).status,
    ).toBe(403);
    const run = JSON.stringify({ server: 'This app', tool: 'plan_trip_budget' });
    expect((await post('/api/calls', run, { origin: 'https://evil.example' })).status).toBe(403);
    expect(
      (
        await api('/api/calls', {
          method: 'POST',
          body: run,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(403);
    expect((await post('/api/calls', run, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('/api/calls', 'x'.repeat(1024 * 1024))).status).toBe(413);
    const malformed = await post('/api/calls', '{"server":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: 'invalid_body' });
    expect((await post('/api/calls', JSON.stringify({ server: 'This app' }))).status).toBe(400);
    expect(
      (await post('/api/calls', JSON.stringify({ server: 'This app', tool: 'toString' }))).status,
    ).toBe(404);
    expect((await post('/api/calls/nope/cancel', '{}')).status).toBe(404);
    expect(await calls()).toEqual([]);
  });

  it('streams the servers and calls on /api/events (no poll needed); Retry of an unknown call is 404', async () => {
    const controller = new AbortController();
    const response = await api('/api/events', { signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const event = /^id: 1\nevent: state\ndata: (.*)\n\n/.exec(text);
    const state = JSON.parse(event![1]!) as { servers: { name: string }[]; calls: unknown[] };
    expect(state.servers.map((server) => server.name)).toEqual([
      'Travel Desk',
      'Deploy Console',
      'This app',
    ]);
    expect(Array.isArray(state.calls)).toBe(true);
    expect((await post('/api/calls/nope/retry', '{}')).status).toBe(404);
  });

  it("runs this app's tool; its question is in the inbox; Cancel call ends it and withdraws the question", async () => {
    const started = await post(
      '/api/calls',
      JSON.stringify({ server: 'This app', tool: 'plan_trip_budget' }),
    );
    expect(started.status).toBe(201);
    const { call } = (await started.json()) as { call: { id: string; status: string } };
    expect(call.status).toBe('running');
    // Run again while it runs: the same call, nothing more started.
    const again = await post(
      '/api/calls',
      JSON.stringify({ server: 'This app', tool: 'plan_trip_budget' }),
    );
    expect(((await again.json()) as { call: { id: string } }).call.id).toBe(call.id);
    expect(await calls()).toHaveLength(1);
    const open = async () =>
      ((await (await api('/api/inbox/requests')).json()) as { requests: unknown[] }).requests
        .length;
    await expect.poll(open, { timeout: 20_000 }).toBe(1);
    expect((await post(`/api/calls/${call.id}/cancel`, '{}')).status).toBe(200);
    await expect.poll(open, { timeout: 20_000 }).toBe(0);
    await expect
      .poll(async () => (await calls()).find((entry) => entry.id === call.id)?.status, {
        timeout: 20_000,
      })
      .toBe('cancelled');
  });

  it('Cancel call on a durable (modern-era) call cancels its question; the call reads cancelled', async () => {
    const started = await post(
      '/api/calls',
      JSON.stringify({ server: 'Deploy Console', tool: 'scale_service' }),
    );
    const { call } = (await started.json()) as { call: { id: string } };
    const open = async () =>
      ((await (await api('/api/inbox/requests')).json()) as { requests: unknown[] }).requests
        .length;
    await expect.poll(open, { timeout: 20_000 }).toBe(1);
    await expect
      .poll(async () => (await calls()).find((entry) => entry.id === call.id), { timeout: 20_000 })
      .toMatchObject({ durableId: expect.any(String) });
    expect((await post(`/api/calls/${call.id}/cancel`, '{}')).status).toBe(200);
    await expect.poll(open, { timeout: 20_000 }).toBe(0);
    await expect
      .poll(async () => (await calls()).find((entry) => entry.id === call.id)?.status, {
        timeout: 20_000,
      })
      .toBe('cancelled');
  });
});
