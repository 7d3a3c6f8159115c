/**
 * The HTTP endpoint's 2025 sessions expire when idle (legacySessions.ts), on the endpoint's
 * injected clock: an idle session is closed after `sessionIdleMs` and not before, its id is then
 * 404 and its host reconnects, and what the gateway held for it (host-facing server, upstream
 * session) is gone; a full endpoint gives the longest-idle session's place to a new host; a session
 * whose host owes a person's answer is neither expired nor reclaimed — even with no stream open.
 * Real v1 SDK hosts and raw HTTP (for a host that drops its stream), over a real gateway in front
 * of the dual-era fixture pinned to 2025.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, onTestFinished, test } from 'vitest';
import { useGatewayOverHttp } from './__fixtures__/gateway';
import { gatewayTables } from './__fixtures__/gatewayTables';
import { openHost, textOf } from './__fixtures__/hosts';
import { manualClock } from './__fixtures__/manualClock';
import { raw } from './__fixtures__/rawHttp';
import { serveHttp, type ServeHttpOptions } from './index';

const IDLE_MS = 60_000;

const initialize = (capabilities: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'raw', version: '1.0.0' },
  },
});
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
const sessionHeaders = (session: string) => ({
  'mcp-session-id': session,
  'mcp-protocol-version': '2025-11-25',
});

describe('2025 sessions at the HTTP endpoint expire when idle', () => {
  const setup = useGatewayOverHttp('legacy');

  /** An endpoint of its own on a manual clock, closed after the test. */
  async function endpointOf(options: ServeHttpOptions = {}) {
    const clock = manualClock();
    const endpoint = await serveHttp(setup.gateway, {
      sessionIdleMs: IDLE_MS,
      clock,
      ...options,
    });
    onTestFinished(() => endpoint.close());
    return { clock, url: endpoint.url };
  }

  /** A raw session: initialized, its response over (so idle from here). */
  async function rawSession(url: string, capabilities?: Record<string, unknown>) {
    const opened = await raw(url, { body: initialize(capabilities) });
    expect(opened.status).toBe(200);
    return opened.headers['mcp-session-id'] as string;
  }

  test('idle for sessionIdleMs it is 404, not a moment before; a request starts the wait anew', async () => {
    const { clock, url } = await endpointOf();
    const session = await rawSession(url);
    clock.advance(IDLE_MS - 1);
    expect((await raw(url, { headers: sessionHeaders(session), body: listTools })).status).toBe(
      200,
    );
    clock.advance(IDLE_MS - 1);
    expect((await raw(url, { headers: sessionHeaders(session), body: listTools })).status).toBe(
      200,
    );
    clock.advance(IDLE_MS);
    const after = await raw(url, { headers: sessionHeaders(session), body: listTools });
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body)).toMatchObject({ error: { message: 'Session not found' } });
  });

  test('a host that left without a DELETE: its id is 404, the tables are back, it reconnects', async () => {
    const { clock, url } = await endpointOf();
    const before = gatewayTables(setup.gateway);
    const host = await openHost('v1', { url }, async () => ({ action: 'decline' }));
    const session = (host.raw.transport as { sessionId?: string }).sessionId as string;
    expect((await host.listTools()).tools.map((tool) => tool.name)).toContain('ask_form');
    expect(gatewayTables(setup.gateway).hostServers).toBe(before.hostServers + 1);
    await host.close();
    // Idle once the gateway has seen the host's streams close; expired a clock's minute later.
    await expect
      .poll(() => {
        clock.advance(IDLE_MS);
        return gatewayTables(setup.gateway);
      })
      .toEqual(before);
    expect((await raw(url, { headers: sessionHeaders(session), body: listTools })).status).toBe(
      404,
    );
    const again = await openHost('v1', { url }, async () => ({ action: 'decline' }));
    try {
      expect((await again.listTools()).tools.map((tool) => tool.name)).toContain('ask_form');
    } finally {
      await again.close();
    }
    await expect
      .poll(() => {
        clock.advance(IDLE_MS);
        return gatewayTables(setup.gateway);
      })
      .toEqual(before);
  });

  test('a full endpoint gives the longest-idle session’s place to a new host', async () => {
    const { url } = await endpointOf({ maxSessions: 2 });
    const first = await rawSession(url);
    const second = await rawSession(url);
    // The first is used again: the second is now the longer idle.
    expect((await raw(url, { headers: sessionHeaders(first), body: listTools })).status).toBe(200);
    const third = await rawSession(url);
    expect((await raw(url, { headers: sessionHeaders(second), body: listTools })).status).toBe(404);
    for (const kept of [first, third])
      expect((await raw(url, { headers: sessionHeaders(kept), body: listTools })).status).toBe(200);
  });

  test('a host whose person is answering inside an open call is neither expired nor reclaimed', async () => {
    const { clock, url } = await endpointOf({ maxSessions: 1 });
    let answer!: (value: { action: 'accept'; content: Record<string, unknown> }) => void;
    const answered = new Promise<{ action: 'accept'; content: Record<string, unknown> }>(
      (resolve) => (answer = resolve),
    );
    const host = await openHost('v1', { url }, () => answered);
    try {
      const call = host.callTool('ask_form');
      call.catch(() => undefined);
      await expect.poll(() => host.asked.length).toBe(1);
      clock.advance(IDLE_MS * 10);
      expect((await raw(url, { body: initialize() })).status).toBe(503);
      answer({ action: 'accept', content: { name: 'Ada' } });
      expect(textOf(await call)).toMatch(/Ada/);
    } finally {
      await host.close();
    }
  });

  test('a question unanswered keeps the session even when the host dropped every stream', async () => {
    const { clock, url } = await endpointOf({ maxSessions: 1 });
    const session = await rawSession(url, { elicitation: {} });
    const headers = sessionHeaders(session);
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect((await raw(url, { headers, body: initialized })).status).toBe(202);
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ask_form' } };
    const question = await firstPushThenDrop(url, headers, call);
    expect(question.method).toBe('elicitation/create');
    // No stream of the session is open now, but the host owes the gateway an answer.
    clock.advance(IDLE_MS * 10);
    expect((await raw(url, { body: initialize() })).status).toBe(503);
    const reply = { jsonrpc: '2.0', id: question.id, result: { action: 'decline' } };
    expect((await raw(url, { headers, body: reply })).status).toBe(202);
    // Answered, the call ends (its response has no stream to go to) and the session turns idle.
    await expect
      .poll(async () => {
        clock.advance(IDLE_MS);
        return (await raw(url, { headers, body: initialized })).status;
      })
      .toBe(404);
  });
});

/** POST `body` on an SSE response, read up to the first request the gateway pushes, then hang up. */
function firstPushThenDrop(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ id: unknown; method: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          // Whole lines only: an event may arrive in pieces.
          for (const line of text.split('\n').slice(0, -1)) {
            if (!line.startsWith('data:')) continue;
            const message = JSON.parse(line.slice(5)) as { id?: unknown; method?: string };
            if (message.method === undefined || message.id === undefined) continue;
            sent.destroy();
            return resolve(message as { id: unknown; method: string });
          }
        });
      },
    );
    sent.on('error', (error) => {
      if (!sent.destroyed) reject(error);
    });
    sent.end(JSON.stringify(body));
  });
}
