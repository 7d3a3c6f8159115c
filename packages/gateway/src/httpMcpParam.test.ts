/**
 * SEP-2243 `Mcp-Param-*` headers at the gateway's HTTP endpoint, over raw HTTP: a 2026-07-28
 * tools/call whose headers do not match its arguments is refused exactly as the upstream (a real v2
 * McpServer, which checks them itself) refuses the same request sent to it directly — same HTTP
 * status, same JSON-RPC error — and never reaches the upstream; one that matches is served. Both
 * upstream eras; the tool list not yet known; the tool changed; a 2025 session is not checked.
 */
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { messageOf, raw, type Raw } from './__fixtures__/rawHttp';
import { serveMcpHttp } from './http';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from './index';

/** A real upstream (both eras on one endpoint) whose `deploy` tool mirrors three arguments. */
async function startParamUpstream() {
  const calls: unknown[] = [];
  let regionHeader = 'Region';
  const create = () => {
    const server = new McpServer({ name: 'param-upstream', version: '1.0.0' }, {});
    const inputSchema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': regionHeader },
        plan: {
          type: 'object',
          properties: { replicas: { type: 'integer', 'x-mcp-header': 'Replicas' } },
        },
        dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
        note: { type: 'string' },
      },
    };
    server.registerTool(
      'deploy',
      {
        description: 'Deploys to a region sent as a header too',
        inputSchema: fromJsonSchema<{ region?: string }>(
          inputSchema as Parameters<typeof fromJsonSchema>[0],
        ),
      },
      (args) => {
        calls.push(args);
        return { content: [{ type: 'text', text: `deployed to ${String(args.region)}` }] };
      },
    );
    return server;
  };
  const endpoint = await serveMcpHttp(create);
  return {
    ...endpoint,
    calls,
    /** From now on `region` is mirrored as `Mcp-Param-<name>` (a tool that changed). */
    renameRegionHeader: (name: string) => void (regionHeader = name),
  };
}

type Upstream = Awaited<ReturnType<typeof startParamUpstream>>;

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modernHeaders = { 'mcp-protocol-version': '2026-07-28' };
let nextId = 1;

/** A 2026-07-28 tools/call of `deploy` with these arguments and extra headers. */
const call = (url: string, args: Record<string, unknown>, headers: Record<string, string> = {}) =>
  raw(url, {
    headers: { ...modernHeaders, 'mcp-method': 'tools/call', 'mcp-name': 'deploy', ...headers },
    body: {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: 'deploy', arguments: args, _meta: envelope },
    },
  });

/** A 2026-07-28 tools/list, as a host that heard the list changed sends. */
const listTools = (url: string) =>
  raw(url, {
    headers: { ...modernHeaders, 'mcp-method': 'tools/list' },
    body: { jsonrpc: '2.0', id: nextId++, method: 'tools/list', params: { _meta: envelope } },
  });

/** What a client sees of a response: its status and JSON-RPC error (the id aside), or result text. */
const seen = ({ status, body }: Raw) => {
  const { result, error } = messageOf(body);
  const content = (result?.['content'] ?? []) as Array<{ text?: string }>;
  return error === undefined ? { status, text: content[0]?.text } : { status, error };
};

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function gatewayIn(front: Upstream, era: 'legacy' | 'modern'): Promise<HttpEndpoint> {
  const gateway: Gateway = await createGateway({
    upstream: { url: front.url },
    era,
    log: () => undefined,
  });
  const endpoint = await serveHttp(gateway);
  cleanup.push(async () => {
    await endpoint.close();
    await gateway.close();
  });
  return endpoint;
}

describe.each(['legacy', 'modern'] as const)('in front of a %s upstream', (era) => {
  let upstream: Upstream;
  let endpoint: HttpEndpoint;
  beforeAll(async () => {
    upstream = await startParamUpstream();
    cleanup.push(() => upstream.close());
    endpoint = await gatewayIn(upstream, era);
  });

  test('a call whose headers match its arguments is served (plain, Base64, numbers, booleans)', async () => {
    const args = { region: 'Zürich ☃', plan: { replicas: 3 }, dry: false, note: 'not mirrored' };
    const headers = {
      'mcp-param-region': base64('Zürich ☃'),
      'mcp-param-replicas': '3',
      'mcp-param-dry-run': 'false',
    };
    const before = upstream.calls.length;
    expect(seen(await call(endpoint.url, args, headers))).toEqual({
      status: 200,
      text: 'deployed to Zürich ☃',
    });
    expect(upstream.calls.slice(before)).toEqual([args]);
    // An argument left out needs no header (and an unrelated one is ignored).
    expect(seen(await call(endpoint.url, { note: 'n' }, { 'mcp-param-other': 'x' }))).toEqual({
      status: 200,
      text: 'deployed to undefined',
    });
  });

  test.each([
    ['a header missing', { region: 'eu' }, {}],
    ['a header that differs', { region: 'eu' }, { 'mcp-param-region': 'us' }],
    ['a nested argument that differs', { plan: { replicas: 3 } }, { 'mcp-param-replicas': '4' }],
    ['a boolean that differs', { dry: true }, { 'mcp-param-dry-run': 'false' }],
    ['Base64 with bad padding', { region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }],
    [
      'Base64 with bad characters',
      { region: 'Hello' },
      { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' },
    ],
  ])(
    'refused as the upstream refuses it, before it reaches the upstream: %s',
    async (_label, args: Record<string, unknown>, headers: Record<string, string>) => {
      const direct = seen(await call(upstream.url, args, headers));
      expect(direct).toMatchObject({ status: 400, error: { code: -32020 } });
      const before = upstream.calls.length;
      expect(seen(await call(endpoint.url, args, headers))).toEqual(direct);
      expect(upstream.calls.length).toBe(before);
    },
  );

  test('the first call, before any host listed the tools, is checked too', async () => {
    const fresh = await gatewayIn(upstream, era);
    const refused = seen(await call(fresh.url, { region: 'eu' }, { 'mcp-param-region': 'us' }));
    expect(refused).toMatchObject({ status: 400, error: { code: -32020 } });
  });

  test('a 2025 session’s call is not checked (SEP-2243 is the 2026-07-28 transport’s)', async () => {
    const opened = await raw(endpoint.url, {
      body: {
        jsonrpc: '2.0',
        id: nextId++,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1.0.0' },
        },
      },
    });
    const headers = {
      'mcp-session-id': opened.headers['mcp-session-id'] as string,
      'mcp-protocol-version': '2025-11-25',
      'mcp-param-region': 'us',
    };
    const body = {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: 'deploy', arguments: { region: 'eu' } },
    };
    expect(seen(await raw(endpoint.url, { headers, body }))).toEqual({
      status: 200,
      text: 'deployed to eu',
    });
  });
});

describe('in front of a modern upstream whose tool changed', () => {
  test('checked against the list as of the host’s last listing; a listing refreshes it', async () => {
    const upstream = await startParamUpstream();
    cleanup.push(() => upstream.close());
    const { url } = await gatewayIn(upstream, 'modern');
    const served = { status: 200, text: 'deployed to eu' };
    expect((await listTools(url)).status).toBe(200);
    expect(seen(await call(url, { region: 'eu' }, { 'mcp-param-region': 'eu' }))).toEqual(served);

    upstream.renameRegionHeader('Zone');
    // No host has seen the new list: its header is checked against the one it saw (the gateway's
    // own upstream client recovers from the upstream's -32020 by listing again).
    expect(seen(await call(url, { region: 'eu' }, { 'mcp-param-region': 'eu' }))).toEqual(served);

    // A host lists again (as one does on list_changed, or after a -32020): the new list counts.
    expect((await listTools(url)).status).toBe(200);
    const stale = seen(await call(url, { region: 'eu' }, { 'mcp-param-region': 'eu' }));
    expect(stale).toMatchObject({ status: 400, error: { code: -32020 } });
    expect(seen(await call(url, { region: 'eu' }, { 'mcp-param-zone': 'eu' }))).toEqual(served);
  });
});
