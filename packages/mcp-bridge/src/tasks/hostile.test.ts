/**
 * Hostile task servers: statuses the SEP forbids or that are past the bridge's bounds end the call
 * with a typed error, never a hang or a question asked twice. The server is a raw 2026-07-28
 * Streamable HTTP one (node:http): the SEP-2663 test server never misbehaves.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Answer, Request } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClient, scriptedPerson } from '../__fixtures__/clients';
import { failOnUnhandledRejections, rejection } from '../__fixtures__/hostileHelpers';

const version = '2026-07-28';
type Json = Record<string, unknown>;

const form = (key: string) => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: `${key}?`,
    requestedSchema: { type: 'object', properties: { v: { type: 'string' } } },
  },
});

const task = (taskId: string, fields: Json): Json => ({
  taskId,
  createdAt: '2026-01-01T00:00:00Z',
  lastUpdatedAt: '2026-01-01T00:00:00Z',
  ttlMs: null,
  pollIntervalMs: 50,
  ...fields,
});

/** What each hostile tool's task reports on tasks/get (`polls`: how many came before). */
const statuses: Record<string, (polls: number) => Json> = {
  huge_inputs: () => ({
    status: 'input_required',
    inputRequests: Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [`k${i}`, form(`k${i}`)]),
    ),
  }),
  unknown_status: () => ({ status: 'paused' }),
  // The answered key is listed for good: a server that never takes the answer.
  repeat_answered: () => ({ status: 'input_required', inputRequests: { k: form('k') } }),
  no_result: () => ({ status: 'completed' }),
};

/** A well-behaved task asking the host's sampling handler: completed once its key was answered. */
const sampled = new Map<string, unknown>();
statuses['ask_sampling'] = () =>
  sampled.has('llm')
    ? {
        status: 'completed',
        result: { content: [{ type: 'text', text: JSON.stringify(sampled.get('llm')) }] },
      }
    : {
        status: 'input_required',
        inputRequests: {
          llm: {
            method: 'sampling/createMessage',
            params: {
              messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
              maxTokens: 5,
            },
          },
        },
      };

/** The hostile server: records every tasks/* request. */
async function startHostileTasks() {
  const log: Array<{ method: string; params: Json }> = [];
  const polls = new Map<string, number>();
  const answer = (method: string, params: Json): Json | undefined => {
    const serverInfo = {
      'io.modelcontextprotocol/serverInfo': { name: 'hostile-tasks', version: '1.0.0' },
    };
    if (method === 'server/discover')
      return {
        supportedVersions: [version],
        capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
        ttlMs: 0,
        cacheScope: 'private',
        _meta: serverInfo,
      };
    if (method === 'tools/list')
      return { tools: [], ttlMs: 0, cacheScope: 'private', _meta: serverInfo };
    if (method === 'tools/call') {
      const name = String(params['name']);
      if (name === 'big_id')
        return { resultType: 'task', ...task('x'.repeat(1024 * 1024), { status: 'working' }) };
      return { resultType: 'task', ...task(name, { status: 'working' }) };
    }
    if (method.startsWith('tasks/')) {
      log.push({ method, params });
      const taskId = String(params['taskId']);
      if (method === 'tasks/update')
        for (const [key, value] of Object.entries(params['inputResponses'] as Json))
          sampled.set(key, value);
      if (method !== 'tasks/get') return {};
      const count = polls.get(taskId) ?? 0;
      polls.set(taskId, count + 1);
      return task(taskId, statuses[taskId]!(count));
    }
    return undefined;
  };
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        id?: unknown;
        method?: string;
        params?: Json;
      };
      if (message.id === undefined) return void response.writeHead(202).end();
      const result = answer(message.method ?? '', message.params ?? {});
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          result === undefined
            ? {
                jsonrpc: '2.0',
                id: message.id,
                error: { code: -32601, message: 'Method not found' },
              }
            : { jsonrpc: '2.0', id: message.id, result: { resultType: 'complete', ...result } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

let server: Awaited<ReturnType<typeof startHostileTasks>>;
beforeAll(async () => {
  server = await startHostileTasks();
});
afterAll(async () => {
  await server.close();
});
failOnUnhandledRejections();

const accept = (request: Request): Answer => ({ id: request.id, ok: true, data: { v: 'x' } });

describe('hostile task statuses', () => {
  it.each([
    ['huge_inputs', /inputRequests is past the limit of 100/, 0],
    ['unknown_status', /Unknown task status "paused"/, 0],
    ['no_result', /must carry its result/, 0],
    ['repeat_answered', /still asked after it was answered/, 1],
  ])('%s is refused with a typed error', async (name, message, asked) => {
    const person = scriptedPerson(accept);
    const client = await openClient(
      'v2-modern',
      'http',
      { url: server.url },
      { waitFor: person.waitFor },
    );
    try {
      const error = await rejection(client.bridge.callTool({ name }));
      expect(error.code).toBe('invalid_params');
      expect(error.message).toMatch(message);
      // The repeated key was asked once (and answered once), never again.
      expect(person.seen).toHaveLength(asked);
      expect(
        server.log.filter(
          (entry) => entry.method === 'tasks/update' && entry.params['taskId'] === name,
        ).length,
      ).toBe(person.seen.length);
    } finally {
      await client.close();
    }
  });

  it('a taskId of 1 MB is refused before any tasks/* request is sent', async () => {
    const client = await openClient(
      'v2-modern',
      'http',
      { url: server.url },
      { waitFor: scriptedPerson(accept).waitFor },
    );
    const before = server.log.length;
    try {
      const error = await rejection(client.bridge.callTool({ name: 'big_id' }));
      expect(error.code).toBe('invalid_params');
      expect(error.message).toMatch(/taskId is past the limit of 256/);
      expect(server.log.length).toBe(before);
    } finally {
      await client.close();
    }
  });
});

describe('host-handled inputRequests of a task', () => {
  it('a sampling inputRequest goes to the host’s sampling handler, its result sent with tasks/update', async () => {
    const origins: unknown[] = [];
    const client = await openClient(
      'v2-modern',
      'http',
      { url: server.url },
      {
        waitFor: scriptedPerson(accept).waitFor,
        sampling: async (_params, context) => {
          origins.push(context.origin);
          return { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' };
        },
      },
    );
    try {
      const result = await client.bridge.callTool({ name: 'ask_sampling' });
      expect(
        JSON.parse((result as { content: Array<{ text: string }> }).content[0]!.text),
      ).toMatchObject({
        content: { text: 'hello' },
      });
      expect(origins).toEqual([
        expect.objectContaining({ taskId: 'ask_sampling', inputKey: 'llm' }),
      ]);
    } finally {
      await client.close();
    }
  });
});
