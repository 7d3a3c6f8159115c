/**
 * The HTTP endpoint's refusals, over real HTTP (node:http, which can name any Host): a foreign
 * Host or Origin gets 403 before anything is read (DNS rebinding), another path 404, a legacy
 * session the gateway does not hold 404 (the transport spec's answer, so a host starts anew) — and
 * real SDK hosts of both generations still connect and call.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { useGatewayOverHttp } from './__fixtures__/gateway';
import { openHost, type HostKind } from './__fixtures__/hosts';
import { createGateway, serveHttp } from './index';

const setup = useGatewayOverHttp('modern');

interface Reply {
  status: number;
  body: string;
}

/** One raw POST to the endpoint's address, with the headers given (Host included). */
function post(path: string, headers: Record<string, string>, body: unknown): Promise<Reply> {
  const url = new URL(setup.endpoint.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1.0.0' },
  },
};
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
const legacyHeaders = { 'mcp-protocol-version': '2025-11-25' };

describe('refused before anything is read', () => {
  test('a Host the endpoint does not answer to: 403', async () => {
    const reply = await post('/mcp', { host: 'rebound.example:80' }, initialize);
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32000 }, id: null });
  });

  test('a browser page of another origin: 403; a localhost page and no Origin pass', async () => {
    expect((await post('/mcp', { origin: 'https://attacker.example' }, initialize)).status).toBe(
      403,
    );
    expect((await post('/mcp', { origin: 'null' }, initialize)).status).toBe(403);
    expect((await post('/mcp', { origin: 'http://localhost:5173' }, initialize)).status).toBe(200);
    expect((await post('/mcp', {}, initialize)).status).toBe(200);
  });

  test('another path: 404', async () => {
    expect((await post('/other', {}, initialize)).status).toBe(404);
    expect((await post('/mcp/extra', {}, initialize)).status).toBe(404);
  });

  test('a request target the URL parser refuses: 404, and the endpoint keeps serving', async () => {
    const url = new URL(setup.endpoint.url);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.end(`GET http://[ HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    expect((await post('/mcp', {}, initialize)).status).toBe(200);
  });

  test('a legacy session the gateway does not hold: 404, with JSON-RPC -32001', async () => {
    const reply = await post(
      '/mcp',
      { ...legacyHeaders, 'mcp-session-id': 'no-such-session' },
      listTools,
    );
    expect(reply.status).toBe(404);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: -32001 } });
  });
});

describe.each(['v1', 'v2-modern'] as HostKind[])('a real %s host', (kind) => {
  test('connects, lists and calls; after its session ended the old id gets 404', async () => {
    const host = await openHost(kind, { url: setup.endpoint.url }, async () => ({
      action: 'accept',
      content: { name: 'Ada' },
    }));
    const transport = (host.raw as unknown as { transport: { sessionId?: string } }).transport;
    const sessionId = transport.sessionId;
    try {
      expect((await host.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await (transport as unknown as { terminateSession?: () => Promise<void> })
        .terminateSession?.()
        .catch(() => undefined);
      await host.close();
    }
    // A 2025 host has a session; a 2026-07-28 host has none to end.
    if (kind === 'v1') {
      expect(sessionId).toBeDefined();
      const reply = await post(
        '/mcp',
        { ...legacyHeaders, 'mcp-session-id': String(sessionId) },
        listTools,
      );
      expect(reply.status).toBe(404);
    } else expect(sessionId).toBeUndefined();
  });
});

test('bound to every interface without allowedHosts: refused at start, with what to give', async () => {
  const gateway = await createGateway({
    upstream: { url: setup.upstream.url },
    era: 'modern',
    log: () => undefined,
  });
  try {
    await expect(serveHttp(gateway, { hostname: '0.0.0.0' })).rejects.toThrow(/allowedHosts/);
    const named = await serveHttp(gateway, { hostname: '0.0.0.0', allowedHosts: ['127.0.0.1'] });
    await named.close();
  } finally {
    await gateway.close();
  }
});
