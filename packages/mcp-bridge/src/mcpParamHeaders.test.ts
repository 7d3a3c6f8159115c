/**
 * SEP-2243 `Mcp-Param-*` headers on the bridge's modern-era tools/call, against a real v2 server
 * over Streamable HTTP (which rejects a call whose headers and body disagree, -32020): the headers
 * the server received on every leg, plain and Base64-wrapped; the same as `Client.callTool` sends;
 * the SDK's recovery from a missing or stale tool list; none in a browser, as the SDK.
 */
import type { Client } from '@modelcontextprotocol/client';
import { accept } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClient, scriptedPerson, textOf, type OpenClient } from './__fixtures__/clients';
import { startMcpParamServer, type McpParamServer } from './__fixtures__/mcpParamServer';
import { BridgeError } from './index';

let server: McpParamServer;
beforeAll(async () => {
  server = await startMcpParamServer();
});
afterAll(async () => {
  await server.close();
});

const person = () => scriptedPerson((request) => accept(request, { ok: true }));

async function withClient(
  body: (open: OpenClient) => Promise<void>,
  { waitFor } = person(),
): Promise<void> {
  const open = await openClient('v2-modern', 'http', { url: server.url }, { waitFor });
  try {
    await body(open);
  } finally {
    await open.close();
  }
}

/** The requests received while `body` ran: method, whether a retry leg, the Mcp-Param headers. */
async function traffic(body: () => Promise<unknown>) {
  const from = server.received.length;
  await body();
  return server.received.slice(from).map(({ method, params, headers }) => ({
    method,
    retry: params?.['inputResponses'] !== undefined,
    headers,
  }));
}

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('Mcp-Param-* headers on a bridge tools/call (modern era)', () => {
  it('mirrors the declared arguments on the first leg and on the retry leg', async () => {
    await withClient(async ({ client, bridge }) => {
      await client.listTools();
      let result: unknown;
      const seen = await traffic(async () => {
        result = await bridge.callTool({
          name: 'mirrored',
          arguments: { region: 'eu-west-1', tenant: { id: 42 }, verbose: false, note: 'n' },
        });
      });
      expect(textOf(result)).toBe('region=eu-west-1 ok=true');
      const headers = {
        'mcp-param-region': 'eu-west-1',
        'mcp-param-tenant-id': '42',
        'mcp-param-verbose': 'false',
      };
      expect(seen).toEqual([
        { method: 'tools/call', retry: false, headers },
        { method: 'tools/call', retry: true, headers },
      ]);
    });
  });

  it.each([
    ['leading and trailing spaces', ' eu ', base64(' eu ')],
    ['non-ASCII', 'Zürich ☃', base64('Zürich ☃')],
    ['a control character', 'a\tb\nc', base64('a\tb\nc')],
    ['the empty string', '', base64('')],
    ['a value shaped like the sentinel', '=?base64?eHk=?=', base64('=?base64?eHk=?=')],
    ['printable ASCII', 'a-b_c.d~e!', 'a-b_c.d~e!'],
  ])('wraps unsafe values in Base64 on every leg: %s', async (_label, region, header) => {
    await withClient(async ({ client, bridge }) => {
      await client.listTools();
      const seen = await traffic(() =>
        bridge.callTool({ name: 'mirrored', arguments: { region } }),
      );
      expect(seen).toEqual([
        { method: 'tools/call', retry: false, headers: { 'mcp-param-region': header } },
        { method: 'tools/call', retry: true, headers: { 'mcp-param-region': header } },
      ]);
    });
  });

  it('sends on every leg exactly what Client.callTool sends for the same arguments', async () => {
    const cases = [
      { region: 'plain', tenant: { id: 7 }, verbose: true },
      { region: ' Ünïcødé ', tenant: {}, verbose: false, note: 'not mirrored' },
      { tenant: { id: -9_007_199_254_740_991 } },
      {},
    ];
    await withClient(async ({ client, bridge }) => {
      await client.listTools();
      for (const args of cases) {
        const params = { name: 'mirrored', arguments: args };
        const legs = await traffic(() => bridge.callTool(params));
        // The host's own callTool: the SDK drives its input_required loop itself.
        const sdk = await traffic(() => client.callTool(params));
        expect(legs.map((leg) => leg.headers)).toHaveLength(2);
        expect(legs, JSON.stringify(args)).toEqual(sdk);
      }
    });
  });

  it('with no tool list cached: sent bare, rejected, the tools listed and the call sent again', async () => {
    await withClient(async ({ bridge }) => {
      let result: unknown;
      const seen = await traffic(async () => {
        result = await bridge.callTool({ name: 'mirrored', arguments: { region: 'cold' } });
      });
      expect(textOf(result)).toBe('region=cold ok=true');
      expect(seen).toEqual([
        { method: 'tools/call', retry: false, headers: {} },
        { method: 'tools/list', retry: false, headers: {} },
        { method: 'tools/call', retry: false, headers: { 'mcp-param-region': 'cold' } },
        { method: 'tools/call', retry: true, headers: { 'mcp-param-region': 'cold' } },
      ]);
    });
  });

  it('with a stale tool list: the stale header is rejected, the list refreshed, the call resent', async () => {
    await withClient(async ({ client, bridge }) => {
      await client.listTools();
      server.renameRegionHeader('Zone');
      try {
        const seen = await traffic(() =>
          bridge.callTool({ name: 'mirrored', arguments: { region: 'moved' } }),
        );
        expect(seen).toEqual([
          { method: 'tools/call', retry: false, headers: { 'mcp-param-region': 'moved' } },
          { method: 'tools/list', retry: false, headers: {} },
          { method: 'tools/call', retry: false, headers: { 'mcp-param-zone': 'moved' } },
          { method: 'tools/call', retry: true, headers: { 'mcp-param-zone': 'moved' } },
        ]);
      } finally {
        server.renameRegionHeader('Region');
      }
    });
  });

  it('recovers on a retry leg too (the tool changed while the person answered)', async () => {
    const renaming = scriptedPerson((request) => {
      server.renameRegionHeader('Zone');
      return accept(request, { ok: true });
    });
    try {
      await withClient(async ({ client, bridge }) => {
        await client.listTools();
        const seen = await traffic(() =>
          bridge.callTool({ name: 'mirrored', arguments: { region: 'mid' } }),
        );
        expect(seen).toEqual([
          { method: 'tools/call', retry: false, headers: { 'mcp-param-region': 'mid' } },
          { method: 'tools/call', retry: true, headers: { 'mcp-param-region': 'mid' } },
          { method: 'tools/list', retry: false, headers: {} },
          { method: 'tools/call', retry: true, headers: { 'mcp-param-zone': 'mid' } },
        ]);
      }, renaming);
    } finally {
      server.renameRegionHeader('Region');
    }
  });

  it('a tool with an outputSchema: its input_required leg is not refused for lacking structuredContent', async () => {
    await withClient(async ({ client, bridge }) => {
      await client.listTools();
      const seen = await traffic(async () => {
        const result = await bridge.callTool({ name: 'structured', arguments: { region: 's' } });
        expect(result).toMatchObject({ structuredContent: { region: 's' } });
      });
      expect(seen.map((leg) => leg.headers)).toEqual([
        { 'mcp-param-region': 's' },
        { 'mcp-param-region': 's' },
      ]);
    });
  });

  it('leaves the client as it was: nothing set on it, the host’s own request sent as given', async () => {
    await withClient(async ({ client, bridge }) => {
      await client.listTools();
      const own = Object.keys(client).sort();
      await bridge.callTool({ name: 'mirrored', arguments: { region: 'r' } });
      expect(Object.keys(client).sort()).toEqual(own);
      const seen = await traffic(() =>
        (client as Client).request(
          { method: 'tools/call', params: { name: 'mirrored', arguments: {} } },
          { allowInputRequired: true } as never,
        ),
      );
      expect(seen).toEqual([{ method: 'tools/call', retry: false, headers: {} }]);
    });
  });

  it('sends none in a browser, as the SDK (credentialed CORS cannot allow dynamic names)', async () => {
    await withClient(async ({ client, bridge }) => {
      await client.listTools();
      const global = globalThis as Record<string, unknown>;
      global['window'] = {};
      global['document'] = {};
      try {
        let error: unknown;
        const seen = await traffic(async () => {
          error = await bridge
            .callTool({ name: 'mirrored', arguments: { region: 'b' } })
            .catch((caught: unknown) => caught);
        });
        // No headers, so the server refuses, and there is no recovery attempt.
        expect(error).toBeInstanceOf(BridgeError);
        expect(seen).toEqual([{ method: 'tools/call', retry: false, headers: {} }]);
        const sdk = await traffic(() =>
          client.callTool({ name: 'mirrored', arguments: { region: 'b' } }).catch(() => undefined),
        );
        expect(sdk).toEqual(seen);
      } finally {
        delete global['window'];
        delete global['document'];
      }
    });
  });
});
