/**
 * The natural order on a v1 client whose schemas the bridge loads itself (no `v1Schemas`):
 * `attachWaitFor`, then `client.connect(…)` at once. The schema module is held back until the
 * server has an answer to its first push — or, when connect rightly waits for the bridge, a grace
 * period passes: so a client that connects before its handler is registered answers the eager push
 * "Method not found" and fails here, however fast the module would load on this machine.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { accept, type Request } from '@waitfor/core';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { startEagerPushServer, type EagerPushServer } from './__fixtures__/eagerPushServer';
import { attachWaitFor, elicitationCapabilities } from './index';

const gate = vi.hoisted(() => ({ answered: (): boolean => false }));

vi.mock('@modelcontextprotocol/sdk/types.js', async (importOriginal) => {
  const started = Date.now();
  // Poll the server's record, bounded: the bound only ends the hold-back for a client that waits.
  await vi.waitFor(
    () => {
      if (!gate.answered() && Date.now() - started < 500) throw new Error('held');
    },
    { timeout: 5_000, interval: 5 },
  );
  return importOriginal();
});

let server: EagerPushServer;
let client: V1Client | undefined;
beforeEach(async () => {
  server = await startEagerPushServer();
  gate.answered = () => server.answers.length > 0;
});
afterEach(async () => {
  await client?.close();
  await server.close();
});

it('answers the first push without awaiting ready, schemas loaded lazily', async () => {
  const seen: Request[] = [];
  const waitFor = async (request: Request) => {
    seen.push(request);
    return accept(request, { confirmed: true });
  };
  client = new V1Client(
    { name: 'attach-connect', version: '1.0.0' },
    { capabilities: elicitationCapabilities({ waitFor }) as never },
  );
  attachWaitFor(client, { waitFor });
  await client.connect(new V1Http(new URL(server.url)));
  await expect.poll(() => server.answers.length).toBe(1);
  expect(server.answers[0]).toMatchObject({
    id: 'eager-1',
    result: { action: 'accept', content: { confirmed: true } },
  });
  expect(seen.map((request) => request.prompt)).toEqual(['Confirm at once?']);
});
