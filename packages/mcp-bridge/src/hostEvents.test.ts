/**
 * What an extension reads of its connection: the declared `modes`, and a `close` event when the
 * connection closes (chained after a client `onclose` set before attaching, which still runs) and
 * when the bridge is detached. Real clients of both generations over Streamable HTTP.
 */
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as v1Types from '@modelcontextprotocol/sdk/types.js';
import { accept } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { useDualEraServer } from './__fixtures__/clients';
import { attachWaitFor, elicitationCapabilities, type AttachOptions } from './index';

const server = useDualEraServer();

type Kind = 'v2' | 'v1';

function build(kind: Kind, options: AttachOptions) {
  const info = { name: 'host-events', version: '1.0.0' };
  const capabilities = elicitationCapabilities(options) as never;
  return kind === 'v2'
    ? {
        client: new V2Client(info, { capabilities }),
        transport: () => new V2Http(new URL(server.url)),
      }
    : {
        client: new V1Client(info, { capabilities }),
        transport: () => new V1Http(new URL(server.url)),
      };
}

describe.each<Kind>(['v2', 'v1'])('%s client', (kind) => {
  it('exposes the declared modes and fires close on client.close(), after the host onclose', async () => {
    const options: AttachOptions = {
      waitFor: async (request) => accept(request),
      modes: ['form'],
      v1Schemas: v1Types,
    };
    const { client, transport } = build(kind, options);
    const log: string[] = [];
    const hostOnClose = () => log.push('host onclose');
    client.onclose = hostOnClose;
    const attachment = attachWaitFor(client, options);
    await attachment.ready;
    expect(attachment.host.modes).toEqual(['form']);
    attachment.host.on('close', () => log.push('close event'));
    await client.connect(transport() as never);

    await client.close();
    expect(log).toEqual(['host onclose', 'close event']);

    // Detaching fires it once more (the extension's end), and gives the host its onclose back.
    attachment.detach();
    expect(log).toEqual(['host onclose', 'close event', 'close event']);
    expect(client.onclose).toBe(hostOnClose);
  });

  it('fires close on detach while connected; a throwing listener breaks nothing', async () => {
    const options: AttachOptions = {
      waitFor: async (request) => accept(request),
      v1Schemas: v1Types,
    };
    const { client, transport } = build(kind, options);
    const attachment = attachWaitFor(client, options);
    await attachment.ready;
    expect(attachment.host.modes).toEqual(['form', 'url']);
    let closes = 0;
    attachment.host.on('close', () => {
      throw new Error('a broken listener');
    });
    attachment.host.on('close', () => (closes += 1));
    await client.connect(transport() as never);
    attachment.detach();
    expect(closes).toBe(1);
    await client.close();
    expect(closes).toBe(1);
  });
});
