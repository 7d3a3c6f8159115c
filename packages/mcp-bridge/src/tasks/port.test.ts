/**
 * The port's raw request for tasks/* on both SDK generations' clients: the v2 client (2.4.0) on the
 * SEP-2663 test server, the v1 client (1.32.2) on a v1 SDK server with its own (2025-11-25
 * experimental) task store: each reaches the task methods with `Mcp-Name: <taskId>`, a caller's
 * own spelling of that header replaced (never sent twice).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport as V1ServerHttp } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientPort } from '../clientPort';
import { startTasksServer, type TasksServer } from '../__fixtures__/tasksServer';
import { TASKS_EXTENSION } from '../protocol';

/** A v1 SDK server with the SDK's task store, over Streamable HTTP; records each POST's headers. */
async function startV1TaskServer() {
  const store = new InMemoryTaskStore();
  const headers: Array<{ method: string; headers: IncomingHttpHeaders }> = [];
  const http = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    headers.push({ method: String(body?.method), headers: request.headers });
    // Stateless: a server and transport per request, the task store shared.
    const server = new V1Server(
      { name: 'v1-tasks', version: '1.0.0' },
      {
        capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
        taskStore: store,
      },
    );
    const transport = new V1ServerHttp({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const task = await store.createTask({ ttl: 60_000 }, 1, {
    method: 'tools/call',
    params: { name: 'x' },
  });
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    headers,
    taskId: task.taskId,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
        store.cleanup();
      }),
  };
}

let modern: TasksServer;
let legacy: Awaited<ReturnType<typeof startV1TaskServer>>;
beforeAll(async () => {
  modern = await startTasksServer();
  legacy = await startV1TaskServer();
});
afterAll(async () => {
  await Promise.all([modern.close(), legacy.close()]);
});

describe('the port’s raw tasks/* request', () => {
  it('v2 client: tasks/get, tasks/update, tasks/cancel reach the SEP-2663 server with Mcp-Name', async () => {
    const client = new V2Client(
      { name: 't', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } } as never);
    const port = createClientPort(client);
    await client.connect(new V2Http(new URL(modern.url)));
    try {
      const created = (await port.call('tools/call', { name: 'hold' }, { raw: true })) as Record<
        string,
        unknown
      >;
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created['taskId'] as string;
      const status = await port.request(
        'tasks/get',
        { taskId },
        { headers: { 'MCP-NAME': 'wrong' } },
      );
      expect(status).toMatchObject({ taskId });
      await port.request('tasks/update', { taskId, inputResponses: {} }, {});
      await port.request('tasks/cancel', { taskId }, {});
      const entries = modern.log.filter((entry) => entry.params['taskId'] === taskId);
      expect(entries.map((entry) => entry.method)).toEqual([
        'tasks/get',
        'tasks/update',
        'tasks/cancel',
      ]);
      for (const entry of entries) expect(entry.headers['mcp-name']).toBe(taskId);
    } finally {
      await client.close();
    }
  });

  it('v1 client: tasks/get and tasks/list reach the v1 SDK’s task server with Mcp-Name', async () => {
    const client = new V1Client({ name: 't', version: '1' }, { capabilities: {} });
    const port = createClientPort(client);
    await client.connect(new V1Http(new URL(legacy.url)));
    try {
      const status = await port.request(
        'tasks/get',
        { taskId: legacy.taskId },
        { headers: { 'mcp-name': 'wrong', 'X-Trace': '1' } },
      );
      expect(status).toMatchObject({ taskId: legacy.taskId, status: 'working' });
      const list = await port.request('tasks/list', {}, {});
      expect((list['tasks'] as Array<{ taskId: string }>).map((task) => task.taskId)).toEqual([
        legacy.taskId,
      ]);
      const get = legacy.headers.find((entry) => entry.method === 'tasks/get')!;
      expect(get.headers['mcp-name']).toBe(legacy.taskId);
      expect(get.headers['x-trace']).toBe('1');
      // tasks/list names no task: no Mcp-Name.
      expect(
        legacy.headers.find((entry) => entry.method === 'tasks/list')!.headers['mcp-name'],
      ).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});
