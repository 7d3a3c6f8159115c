/**
 * The HTTP endpoint on localhost: DNS rebinding (a foreign Host or Origin) is refused 403, only
 * /mcp is served (a target the URL parser refuses included), a session the endpoint does not hold is 404 (the client starts anew), and real
 * v1 and v2 SDK clients still connect. Raw HTTP for the refusals (a client library would not send
 * them), over a real gateway in front of the dual-era fixture.
 */
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { useGatewayOverHttp } from './__fixtures__/gateway';
import { openHost, type HostKind } from './__fixtures__/hosts';
import { raw } from './__fixtures__/rawHttp';
import { serveHttp } from './index';

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

describe('serveHttp on 127.0.0.1', () => {
  const setup = useGatewayOverHttp('legacy');

  test('a foreign Host is refused 403 before anything is read or opened', async () => {
    const { url } = setup.endpoint;
    const response = await raw(url, {
      headers: { host: `attacker.example:${new URL(url).port}` },
      body: initialize,
    });
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: -32000 } });
    expect(response.headers['mcp-session-id']).toBeUndefined();
  });

  test.each(['localhost', '127.0.0.1', '[::1]'])('Host %s is let in', async (hostname) => {
    const { url } = setup.endpoint;
    const response = await raw(url, {
      headers: { host: `${hostname}:${new URL(url).port}` },
      body: initialize,
    });
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toEqual(expect.any(String));
  });

  test.each(['http://attacker.example', 'null', 'https://localhost.attacker.example:443'])(
    'a request from the web page at Origin %s is refused 403',
    async (origin) => {
      const response = await raw(setup.endpoint.url, { headers: { origin }, body: initialize });
      expect(response.status).toBe(403);
      expect(response.headers['mcp-session-id']).toBeUndefined();
    },
  );

  test('a page on localhost (another port) is let in', async () => {
    const response = await raw(setup.endpoint.url, {
      headers: { origin: 'http://localhost:5173' },
      body: initialize,
    });
    expect(response.status).toBe(200);
  });

  test.each(['/', '/mcp/extra', '/other', '/favicon.ico'])('path %s is 404', async (path) => {
    const response = await raw(new URL(path, setup.endpoint.url).href, { body: initialize });
    expect(response.status).toBe(404);
    expect(response.headers['mcp-session-id']).toBeUndefined();
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
    expect((await raw(setup.endpoint.url, { body: initialize })).status).toBe(200);
  });

  test('/mcp with a query string is the endpoint', async () => {
    const response = await raw(`${setup.endpoint.url}?client=raw`, { body: initialize });
    expect(response.status).toBe(200);
  });

  test('a deleted session is 404, so the client knows to initialize again', async () => {
    const { url } = setup.endpoint;
    const opened = await raw(url, { body: initialize });
    const session = opened.headers['mcp-session-id'] as string;
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    expect((await raw(url, { headers, body: listTools })).status).toBe(200);
    expect((await raw(url, { method: 'DELETE', headers })).status).toBe(200);
    const after = await raw(url, { headers, body: listTools });
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body)).toMatchObject({ error: { message: 'Session not found' } });
  });

  test('a session never opened is 404; no session at all on a non-initialize is 400', async () => {
    const { url } = setup.endpoint;
    const unknown = await raw(url, {
      headers: { 'mcp-session-id': 'never-opened', 'mcp-protocol-version': '2025-11-25' },
      body: listTools,
    });
    expect(unknown.status).toBe(404);
    expect((await raw(url, { body: listTools })).status).toBe(400);
    expect((await raw(url, { method: 'GET' })).status).toBe(400);
  });

  test.each<HostKind>(['v1', 'v2-modern'])('a %s SDK client still connects', async (kind) => {
    const host = await openHost(kind, { url: setup.endpoint.url }, async () => ({
      action: 'decline',
    }));
    try {
      const { tools } = await host.listTools();
      expect(tools.map((tool) => tool.name)).toContain('ask_form');
    } finally {
      await host.close();
    }
  });
});

describe('serveHttp on an address that is not loopback', () => {
  const setup = useGatewayOverHttp('legacy');

  test('refuses to start unless the operator names the allowed hosts', async () => {
    await expect(serveHttp(setup.gateway, { hostname: '0.0.0.0' })).rejects.toThrow(
      /needs allowedHosts/,
    );
  });

  test('serves the hosts named, refuses the others, and any Origin unless named', async () => {
    const endpoint = await serveHttp(setup.gateway, {
      hostname: '0.0.0.0',
      allowedHosts: ['gateway.lan'],
    });
    try {
      const url = endpoint.url.replace('0.0.0.0', '127.0.0.1');
      const port = new URL(url).port;
      const named = await raw(url, { headers: { host: `gateway.lan:${port}` }, body: initialize });
      expect(named.status).toBe(200);
      const loopbackHost = await raw(url, { body: initialize });
      expect(loopbackHost.status).toBe(403);
      const fromPage = await raw(url, {
        headers: { host: `gateway.lan:${port}`, origin: 'http://gateway.lan' },
        body: initialize,
      });
      expect(fromPage.status).toBe(403);
    } finally {
      await endpoint.close();
    }
  });

  test('an Origin the operator names is let in', async () => {
    const endpoint = await serveHttp(setup.gateway, {
      hostname: '0.0.0.0',
      allowedHosts: ['gateway.lan'],
      allowedOrigins: ['console.gateway.lan'],
    });
    try {
      const url = endpoint.url.replace('0.0.0.0', '127.0.0.1');
      const response = await raw(url, {
        headers: {
          host: `gateway.lan:${new URL(url).port}`,
          origin: 'https://console.gateway.lan',
        },
        body: initialize,
      });
      expect(response.status).toBe(200);
    } finally {
      await endpoint.close();
    }
  });
});
