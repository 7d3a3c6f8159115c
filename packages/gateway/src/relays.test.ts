/**
 * What the upstream asks of the host besides questions, relayed toward the host in its own era:
 * sampling/createMessage and roots/list (a 2025 server pushes them, a 2026-07-28 one asks them as
 * inputRequests); a host that did not declare them gets nothing and the server a refusal. Real SDK
 * clients as hosts, real servers of both eras upstream, Streamable HTTP throughout.
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  EmptyResultSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test, vi } from 'vitest';
import { startDualEraHttpServer } from '../../mcp-bridge/src/__fixtures__/dualEraServer';
import { startEverythingServer } from '../conformance/everythingServer';
import { useGatewayInFront } from './__fixtures__/gateway';
import { textOf, type HostKind } from './__fixtures__/hosts';
import { startLegacyHttpServer } from './__fixtures__/legacyServer';

interface RelayHost {
  /** What the host was asked, by method. */
  seen: string[];
  call(name: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const sampled = (kind: string) => ({
  role: 'assistant',
  content: { type: 'text', text: `hi from ${kind}` },
  model: `model-of-${kind}`,
});
const roots = (kind: string) => ({ roots: [{ uri: `file:///home/${kind}`, name: kind }] });

/** A host that serves sampling and roots (`declared`), or declares neither. */
async function openRelayHost(kind: HostKind, url: string, declared: boolean): Promise<RelayHost> {
  const seen: string[] = [];
  const capabilities = declared ? { sampling: {}, roots: {} } : {};
  const info = { name: `relay-${kind}`, version: '1.0.0' };
  if (kind === 'v1') {
    const client = new V1Client(info, { capabilities });
    if (declared) {
      client.setRequestHandler(CreateMessageRequestSchema, async () => {
        seen.push('sampling/createMessage');
        return sampled(kind) as never;
      });
      client.setRequestHandler(ListRootsRequestSchema, async () => {
        seen.push('roots/list');
        return roots(kind);
      });
    }
    await client.connect(new V1Http(new URL(url)));
    return {
      seen,
      call: (name) => client.callTool({ name, arguments: {} }) as never,
      close: () => client.close(),
    };
  }
  const client = new V2Client(info, {
    capabilities,
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  } as never);
  if (declared) {
    client.setRequestHandler(
      'sampling/createMessage' as never,
      (async () => {
        seen.push('sampling/createMessage');
        return sampled(kind);
      }) as never,
    );
    client.setRequestHandler(
      'roots/list' as never,
      (async () => {
        seen.push('roots/list');
        return roots(kind);
      }) as never,
    );
  }
  await client.connect(new V2Http(new URL(url)));
  return {
    seen,
    call: (name) => client.callTool({ name, arguments: {} }) as never,
    close: () => client.close(),
  };
}

const kinds: HostKind[] = ['v1', 'v2-modern'];

describe('a 2025 server pushes sampling and roots', () => {
  const setup = useGatewayInFront(startLegacyHttpServer, undefined);

  test.each(kinds)('host %s answers them in its own era', async (kind) => {
    const host = await openRelayHost(kind, setup.endpoint.url, true);
    try {
      expect(JSON.parse(textOf(await host.call('sample')))).toEqual({
        model: `model-of-${kind}`,
        content: { type: 'text', text: `hi from ${kind}` },
      });
      expect(JSON.parse(textOf(await host.call('roots')))).toEqual(roots(kind).roots);
      expect(host.seen).toEqual(['sampling/createMessage', 'roots/list']);
    } finally {
      await host.close();
    }
  });

  test.each(kinds)('host %s declared neither: the server is refused (-32601)', async (kind) => {
    const host = await openRelayHost(kind, setup.endpoint.url, false);
    try {
      expect(textOf(await host.call('sample'))).toBe('error:-32601');
      expect(textOf(await host.call('roots'))).toBe('error:-32601');
      expect(host.seen).toEqual([]);
    } finally {
      await host.close();
    }
  });
});

describe('a 2026-07-28 server asks sampling and roots as inputRequests', () => {
  const setup = useGatewayInFront(startDualEraHttpServer, 'modern');

  test.each(kinds)('host %s answers them in its own era', async (kind) => {
    const host = await openRelayHost(kind, setup.endpoint.url, true);
    try {
      expect(textOf(await host.call('ask_sampling'))).toBe(`model=model-of-${kind}`);
      expect(textOf(await host.call('ask_roots'))).toBe(`file:///home/${kind}`);
      expect(host.seen).toEqual(['sampling/createMessage', 'roots/list']);
    } finally {
      await host.close();
    }
  });

  test.each(kinds)('host %s declared neither: its call fails, nothing is asked', async (kind) => {
    const host = await openRelayHost(kind, setup.endpoint.url, false);
    try {
      await expect(host.call('ask_sampling')).rejects.toThrow(/sampling\/createMessage/);
      await expect(host.call('ask_roots')).rejects.toThrow(/roots\/list/);
      expect(host.seen).toEqual([]);
      expect(setup.gateway.open).toBe(0);
    } finally {
      await host.close();
    }
  });
});

describe('resource subscriptions of a 2025 server', () => {
  const setup = useGatewayInFront(startLegacyHttpServer, undefined);

  const subscriber = async (updates: string[]) => {
    const host = new V1Client({ name: 'subscriber', version: '1.0.0' }, { capabilities: {} });
    host.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
      updates.push(notification.params.uri);
    });
    await host.connect(new V1Http(new URL(setup.endpoint.url)));
    return host;
  };

  test('a 2025 host subscribes, gets its updates (another host none), and stops once unsubscribed', async () => {
    const updates: string[] = [];
    const others: string[] = [];
    const host = await subscriber(updates);
    const other = await subscriber(others);
    try {
      await other.readResource({ uri: 'legacy://counter' });
      expect(host.getServerCapabilities()?.resources?.subscribe).toBe(true);
      await host.subscribeResource({ uri: 'legacy://counter' });
      expect(textOf(await host.callTool({ name: 'bump', arguments: {} }))).toBe('counter=1');
      await vi.waitFor(() => expect(updates).toEqual(['legacy://counter']));
      await host.unsubscribeResource({ uri: 'legacy://counter' });
      expect(textOf(await host.callTool({ name: 'bump', arguments: {} }))).toBe('counter=2');
      // The resource now reads 2 (the update, were it sent, comes before the call's answer).
      const read = await host.readResource({ uri: 'legacy://counter' });
      expect(read.contents[0]).toMatchObject({ text: '2' });
      expect(updates).toEqual(['legacy://counter']);
      expect(others).toEqual([]);
    } finally {
      await other.close();
      await host.close();
    }
  });

  // Its updates reach it on a listen stream (resourceListens.test.ts).
  test('a 2026-07-28 host over HTTP is offered subscribe, for its listen streams', async () => {
    const client = new V2Client({ name: 'modern', version: '1.0.0' }, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    } as never);
    await client.connect(new V2Http(new URL(setup.endpoint.url)));
    try {
      expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('resource subscriptions of a 2026-07-28 server', () => {
  const setup = useGatewayInFront(startEverythingServer, 'modern');

  // Its revision has no resources/subscribe (subscriptions/listen replaced it): a 2025 host is
  // offered none, and one that subscribes anyway is refused as by a server without subscribe.
  test('a 2025 host is offered no subscribe; a subscribe anyway is -32601', async () => {
    const host = new V1Client({ name: 'subscriber', version: '1.0.0' }, { capabilities: {} });
    await host.connect(new V1Http(new URL(setup.endpoint.url)));
    try {
      expect(host.getServerCapabilities()?.resources).toBeDefined();
      expect(host.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
      await expect(
        host.request(
          { method: 'resources/subscribe', params: { uri: 'test://watched-resource' } },
          EmptyResultSchema,
        ),
      ).rejects.toMatchObject({ code: -32601 });
    } finally {
      await host.close();
    }
  });
});
