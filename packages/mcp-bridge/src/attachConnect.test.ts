/**
 * The natural order on a v1 client — `attachWaitFor(client, { waitFor })`, then `client.connect(…)`
 * at once, without awaiting `ready` — serves the server's first push, even one sent before the
 * initialize result (src/__fixtures__/eagerPushServer.ts), over real Streamable HTTP. Schemas
 * loaded lazily: attachConnectLazy.test.ts.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as v1Types from '@modelcontextprotocol/sdk/types.js';
import { accept } from '@waitfor/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEagerPushServer, type EagerPushServer } from './__fixtures__/eagerPushServer';
import { scriptedPerson } from './__fixtures__/clients';
import { attachWaitFor, BridgeError, elicitationCapabilities } from './index';

describe('v1 client: attach, then connect at once', () => {
  let server: EagerPushServer;
  const clients: V1Client[] = [];
  beforeEach(async () => {
    server = await startEagerPushServer();
  });
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((client) => client.close()));
    await server.close();
  });

  const newClient = (options: Parameters<typeof elicitationCapabilities>[0]) => {
    const client = new V1Client(
      { name: 'attach-connect', version: '1.0.0' },
      { capabilities: elicitationCapabilities(options) as never },
    );
    clients.push(client);
    return client;
  };

  it('answers the first push (schemas given) without awaiting ready', async () => {
    const person = scriptedPerson((request) => accept(request, { confirmed: true }));
    const client = newClient({ waitFor: person.waitFor });
    attachWaitFor(client, { waitFor: person.waitFor, v1Schemas: v1Types });
    await client.connect(new V1Http(new URL(server.url)));
    await expect.poll(() => server.answers.length).toBe(1);
    expect(server.answers[0]).toMatchObject({
      id: 'eager-1',
      result: { action: 'accept', content: { confirmed: true } },
    });
    expect(person.seen.map((request) => request.prompt)).toEqual(['Confirm at once?']);
  });

  it('uses the v1Schemas of a later attach even when the client was attached before', async () => {
    const person = scriptedPerson((request) => accept(request, { confirmed: true }));
    const client = newClient({ waitFor: person.waitFor, sampling: true });
    // A first bridge on the client, without schemas (they load lazily), detached before connect.
    const first = attachWaitFor(client, { waitFor: person.waitFor });
    await first.ready;
    first.detach();
    const attachment = attachWaitFor(client, {
      waitFor: person.waitFor,
      sampling: async () => ({}),
      // Given now, and lacking the sampling schema: the bridge must read these, not load its own.
      v1Schemas: { ElicitRequestSchema: v1Types.ElicitRequestSchema },
    });
    const error = await attachment.ready.catch((caught: unknown) => caught);
    expect(BridgeError.isInstance(error) && error.message).toMatch(/CreateMessageRequestSchema/);
  });
});
