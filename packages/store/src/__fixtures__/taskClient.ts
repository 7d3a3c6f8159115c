/**
 * A real modern-era v2 client of a 2026-07-28 tasks server over Streamable HTTP, the bridge
 * attached. Every request it sends carries `x-waitfor-host: <host>`, so the server's log tells
 * which host polled a task. A durable call never asks in process: its questions go through the
 * store, and this client's waitFor throws.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Bridge } from '../../../mcp-bridge/src/index';
import { attachWaitFor, elicitationCapabilities } from '../../../mcp-bridge/src/index';
import {
  startTasksServer,
  type TasksServer,
} from '../../../mcp-bridge/src/__fixtures__/tasksServer';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresServer } from './postgresServer';

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

/**
 * A real PostgreSQL and the 2026-07-28 tasks server (polled at 50 ms) for the enclosing suite, and
 * `bridgeOf(host)`: a task client of that server, closed after the suite. Read them in tests only.
 */
export function useTaskServers() {
  let postgres: PostgresServer | undefined;
  let tasks: TasksServer | undefined;
  const clients: TaskClient[] = [];
  beforeAll(async () => {
    [postgres, tasks] = await Promise.all([
      startPostgres(),
      startTasksServer({ pollInterval: 50 }),
    ]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all([postgres?.destroy(), tasks?.close()]);
  });
  const running = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error('the task servers are not running: read them in a test');
    return value;
  };
  return {
    get postgres(): PostgresServer {
      return running(postgres);
    },
    get tasks(): TasksServer {
      return running(tasks);
    },
    bridgeOf: async (host: string): Promise<Bridge> => {
      const client = await openTaskClient(running(tasks).url, host);
      clients.push(client);
      return client.bridge;
    },
  };
}
