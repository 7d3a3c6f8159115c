/**
 * What `sdkWorkarounds.ts` relies on, checked against the installed SDKs and a real client over
 * real Streamable HTTP (the raw 2026-07-28 server, which sends results the SDK server would not).
 * An SDK upgrade fails here first: the pinned versions name what was checked, and each behaviour a
 * workaround needs is exercised on its own.
 */
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startHostileRawServer, type HostileRawServer } from '../__fixtures__/hostileRawServer';
import type { Loose } from './shared';
import { captureRequestId, stampMissingResultType, WRITTEN_FOR } from './sdkWorkarounds';

const installedVersion = (name: keyof typeof WRITTEN_FOR): string => {
  const path = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
};

describe('the SDK versions the workarounds were written for', () => {
  test.each(Object.keys(WRITTEN_FOR) as Array<keyof typeof WRITTEN_FOR>)(
    '%s is the installed one (an upgrade: re-check sdkWorkarounds.ts, then bump WRITTEN_FOR)',
    (name) => {
      expect(installedVersion(name)).toBe(WRITTEN_FOR[name]);
    },
  );
});

describe('v2 client on a modern connection', () => {
  let server: HostileRawServer;
  let client: Client;
  beforeEach(async () => {
    server = await startHostileRawServer();
    client = new Client({ name: 'workarounds', version: '1.0.0' }, {
      capabilities: {},
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    } as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  const rawCall = (name: string) =>
    (client as unknown as Loose)['request']!({
      method: 'tools/call',
      params: { name, arguments: {} },
    } as never) as Promise<Record<string, unknown>>;

  test('request() hands the message to transport.send synchronously (the request-id capture)', async () => {
    const { id, pending } = captureRequestId(client as unknown as Loose, () =>
      rawCall('no_result_type').catch(() => undefined),
    );
    expect(id).toBeDefined();
    await pending;
  });

  test('the modern codec still refuses a result without resultType (the stamp is still needed)', async () => {
    // When this starts resolving, the SDK follows the spec itself: drop stampMissingResultType.
    await expect(rawCall('no_result_type')).rejects.toBeDefined();
  });

  test('a result stamped at transport.onmessage decodes as complete', async () => {
    const ids = new Set<unknown>();
    stampMissingResultType(client as unknown as Loose, ids);
    const { id, pending } = captureRequestId(client as unknown as Loose, () =>
      rawCall('no_result_type'),
    );
    ids.add(id);
    const result = await pending;
    expect(result['content']).toEqual([{ type: 'text', text: 'untyped' }]);
  });
});
