/**
 * A real modern-era v2 client of a 2026-07-28 tasks server over Streamable HTTP, the bridge
 * attached. Every request it sends carries `x-waitfor-host: <host>`, so the server's log tells
 * which host polled a task. A durable call never asks in process: its questions go through the
 * store, and this client's waitFor throws.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Bridge } from '../../../mcp-bridge/src/index';
import { attachWaitFor, elicitationCapabilities } from '../../../mcp-bridge/src/index';

export interface TaskClient {
  bridge: Bridge;
  close(): Promise<void>;
}

export async function openTaskClient(
  url: string,
  host: string,
  serverId = 'tasks',
): Promise<TaskClient> {
  // A pooled socket the server closed as idle just as it is reused (a loaded machine delays the
  // client's own idle timer) fails the connect with ECONNRESET: a set-up step, tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await openOnce(url, host, serverId);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

async function openOnce(url: string, host: string, serverId: string): Promise<TaskClient> {
  const options = {
    waitFor: () => {
      throw new Error('a durable call asked in process');
    },
    serverId,
  };
  const client = new Client(
    { name: 'waitfor-test', version: '1.0.0' },
    {
      capabilities: elicitationCapabilities(options) as never,
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  const bridge = attachWaitFor(client, options);
  await bridge.ready;
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { 'x-waitfor-host': host } },
    }),
  );
  return { bridge, close: () => client.close() };
}
