/**
 * What `sdkWorkarounds.ts` relies on, checked against the installed SDKs and a real client over
 * real Streamable HTTP (the raw 2026-07-28 server, which sends results the SDK server would not;
 * for SEP-2243, a v2 SDK server whose tools declare `x-mcp-header`s).
 * An SDK upgrade fails here first: the pinned versions name what was checked, and each behaviour a
 * workaround needs is exercised on its own.
 */
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startHostileRawServer, type HostileRawServer } from '../__fixtures__/hostileRawServer';
import { startMcpParamServer, type McpParamServer } from '../__fixtures__/mcpParamServer';
import type { Loose } from './shared';
import {
  callToolBy,
  captureRequestId,
  requestValidated,
  stampMissingResultType,
  WRITTEN_FOR,
} from './sdkWorkarounds';

const installedVersion = (name: keyof typeof WRITTEN_FOR): string => {
  const path = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
};

/** A v2 client pinned to the modern era, connected to `url` over Streamable HTTP. */
async function connectModern(url: string, capabilities: object): Promise<Client> {
  const client = new Client({ name: 'workarounds', version: '1.0.0' }, {
    capabilities,
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  } as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

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
    client = await connectModern(server.url, {});
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

  // requestValidated: request() with the era validator kept.
  const send = (validators: Map<string, unknown>, name: string) =>
    requestValidated(
      client as unknown as Loose,
      validators,
      'modern',
      { method: 'tools/call', params: { name, arguments: {} } },
      {},
    ) as Promise<Record<string, unknown>>;

  test('request() hands its Standard Schema validator to _requestWithSchemaViaCodec, synchronously, once', async () => {
    const validators = new Map<string, unknown>();
    expect(await send(validators, 'plain')).toMatchObject({ content: [{ text: 'plain' }] });
    expect([...validators.keys()]).toEqual(['modern tools/call']);
    const validator = validators.get('modern tools/call') as Record<string, unknown>;
    expect(typeof (validator['~standard'] as { validate?: unknown }).validate).toBe('function');
    // Nothing is left on the client: the capture shadowed the method for that one call.
    expect(Object.hasOwn(client, '_requestWithSchemaViaCodec')).toBe(false);
    // Kept, it is passed as request()'s explicit schema: the same result.
    expect(await send(validators, 'plain')).toMatchObject({ content: [{ text: 'plain' }] });
    expect(validators.size).toBe(1);
  });

  test('the kept validator refuses what the SDK refuses (no looser)', async () => {
    const validators = new Map<string, unknown>();
    const first = await send(validators, 'bad_content').catch((error: unknown) => error);
    expect(validators.size).toBe(1);
    const again = await send(validators, 'bad_content').catch((error: unknown) => error);
    const sdk = await (
      (client as unknown as Loose)['request']!({
        method: 'tools/call',
        params: { name: 'bad_content', arguments: {} },
      } as never) as Promise<unknown>
    ).catch((error: unknown) => error);
    for (const error of [first, again]) {
      expect(error).toBeInstanceOf(Error);
      expect(String(error)).toBe(String(sdk));
    }
  });
});

describe('callTool on a stand-in (SEP-2243 Mcp-Param-* headers for the raw tools/call)', () => {
  let server: McpParamServer;
  let client: Client;
  beforeEach(async () => {
    server = await startMcpParamServer();
    client = await connectModern(server.url, { elicitation: { form: {} } });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  /** A `request` that records what callTool hands it and sends it on the real client. */
  const recorder = () => {
    const sent: Array<{ method: unknown; headers: unknown }> = [];
    const request = (message: unknown, options: unknown) => {
      sent.push({
        method: (message as { method?: unknown }).method,
        headers: (options as { headers?: unknown } | undefined)?.headers,
      });
      return client.request(message as never, options as never) as Promise<unknown>;
    };
    return { sent, request };
  };
  const raw = { allowInputRequired: true };

  test('sends the tools/call through the given request, with the headers from the client’s list', async () => {
    await client.listTools();
    const { sent, request } = recorder();
    const params = { name: 'mirrored', arguments: { region: ' x ', tenant: { id: 3 } } };
    const result = await callToolBy(client as unknown as Loose, request, params, raw);
    expect(result).toMatchObject({ resultType: 'input_required' });
    expect(sent).toEqual([
      {
        method: 'tools/call',
        headers: { 'Mcp-Param-Region': '=?base64?IHgg?=', 'Mcp-Param-Tenant-Id': '3' },
      },
    ]);
  });

  test('on HEADER_MISMATCH it lists the tools afresh through the given request and sends once more', async () => {
    const { sent, request } = recorder();
    const params = { name: 'mirrored', arguments: { region: 'y' } };
    const result = await callToolBy(client as unknown as Loose, request, params, raw);
    expect(result).toMatchObject({ resultType: 'input_required' });
    expect(sent).toEqual([
      { method: 'tools/call', headers: undefined },
      { method: 'tools/list', headers: undefined },
      { method: 'tools/call', headers: { 'Mcp-Param-Region': 'y' } },
    ]);
  });

  test('callTool itself refuses the input_required leg of a tool with an outputSchema; the stand-in does not', async () => {
    await client.listTools();
    const params = { name: 'structured', arguments: { region: 'z' } };
    await expect(client.callTool(params, raw as never)).rejects.toThrow(/structured content/);
    const { request } = recorder();
    await expect(
      callToolBy(client as unknown as Loose, request, params, raw),
    ).resolves.toMatchObject({ resultType: 'input_required' });
  });

  test('sets nothing on the client', async () => {
    await client.listTools();
    const cache = (client as unknown as Loose)['_cache'] as unknown as Record<string, unknown>;
    const before = [Object.keys(client).sort(), Object.keys(cache).sort()];
    const { request } = recorder();
    await callToolBy(client as unknown as Loose, request, { name: 'mirrored', arguments: {} }, raw);
    expect([Object.keys(client).sort(), Object.keys(cache).sort()]).toEqual(before);
    expect(Object.hasOwn(client, 'request')).toBe(false);
    expect(Object.hasOwn(cache, 'outputValidator')).toBe(false);
  });
});
