/** The upstream's list-changed notifications reach a host that can receive them (2025 era). */
import { fileURLToPath } from 'node:url';
import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test, vi } from 'vitest';
import { openHost, tsxBinary } from './__fixtures__/hosts';
import { createGateway, serveHttp } from './index';

const growing = fileURLToPath(new URL('./__fixtures__/growingServer.ts', import.meta.url));

test('a tool the upstream adds: the host is told the list changed and lists it', async () => {
  const gateway = await createGateway({
    upstream: { command: tsxBinary, args: [growing] },
    era: 'legacy',
    log: () => undefined,
  });
  const endpoint = await serveHttp(gateway);
  const host = await openHost('v1', { url: endpoint.url }, async () => ({ action: 'cancel' }));
  try {
    let changed = 0;
    (host.raw as V1Client).setNotificationHandler(
      ToolListChangedNotificationSchema,
      () => void (changed += 1),
    );
    expect((await host.listTools()).tools.map((tool) => tool.name)).toEqual(['grow']);
    await host.callTool('grow');
    await vi.waitFor(() => expect(changed).toBe(1));
    expect((await host.listTools()).tools.map((tool) => tool.name)).toEqual(['grow', 'grown_1']);
  } finally {
    await host.close();
    await endpoint.close();
    await gateway.close();
  }
});
