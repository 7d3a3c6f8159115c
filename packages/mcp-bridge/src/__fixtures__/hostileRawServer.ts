/**
 * A raw 2026-07-28 Streamable HTTP server written with node:http, for the hostile messages the v2
 * SDK server refuses to emit (its seam rejects an input request whose method the revision does not
 * define, and results with an unknown `resultType`). It speaks the real wire protocol: JSON-RPC over
 * POST, JSON responses, `server/discover`, `tools/list`, `tools/call`, with the per-request `_meta`
 * envelope checked for presence.
 *
 * Tools: `unknown_method` (an `input_required` whose only input request is `widgets/create`),
 * `unknown_result_type` (a result with `resultType: "banana"`), `ask_sampling` (an `input_required`
 * asking `sampling/createMessage` whatever the client declared; answered → text "sampled") and
 * `no_result_type` (a result without `resultType`, which a client MUST treat as complete). Every
 * tools/call is recorded.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A recorded tools/call: its JSON-RPC id and params. */
export interface RawCall {
  id: unknown;
  params: Record<string, unknown>;
}

/** A running raw hostile server. */
export interface HostileRawServer {
  url: string;
  calls: RawCall[];
  close(): Promise<void>;
}

const version = '2026-07-28';
const tools = [
  {
    name: 'unknown_method',
    description: 'Asks with an unknown input request method.',
    inputSchema: { type: 'object' },
  },
  {
    name: 'unknown_result_type',
    description: 'Answers with an unknown resultType.',
    inputSchema: { type: 'object' },
  },
  {
    name: 'ask_sampling',
    description: 'Asks for sampling whatever the client declared.',
    inputSchema: { type: 'object' },
  },
  {
    name: 'no_result_type',
    description: 'Answers without a resultType.',
    inputSchema: { type: 'object' },
  },
];

function answer(
  method: string,
  params: Record<string, unknown>,
  calls: RawCall[],
  id: unknown,
): unknown {
  const serverInfo = {
    'io.modelcontextprotocol/serverInfo': { name: 'hostile-raw', version: '1.0.0' },
  };
  if (method === 'server/discover') {
    return {
      resultType: 'complete',
      supportedVersions: [version],
      capabilities: { tools: {} },
      ttlMs: 0,
      cacheScope: 'private',
      _meta: serverInfo,
    };
  }
  if (method === 'tools/list')
    return { resultType: 'complete', tools, ttlMs: 0, cacheScope: 'private', _meta: serverInfo };
  if (method === 'tools/call') {
    calls.push({ id, params });
    if (params.name === 'unknown_method') {
      if (params.inputResponses !== undefined)
        return { resultType: 'complete', content: [{ type: 'text', text: 'retried' }] };
      return {
        resultType: 'input_required',
        inputRequests: { hostile: { method: 'widgets/create', params: { size: 3 } } },
      };
    }
    if (params.name === 'unknown_result_type') return { resultType: 'banana', content: [] };
    if (params.name === 'ask_sampling') {
      if (params.inputResponses !== undefined)
        return { resultType: 'complete', content: [{ type: 'text', text: 'sampled' }] };
      return {
        resultType: 'input_required',
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
    }
    if (params.name === 'no_result_type') return { content: [{ type: 'text', text: 'untyped' }] };
    if (params.name === 'plain')
      return { resultType: 'complete', content: [{ type: 'text', text: 'plain' }] };
    // Not a CallToolResult: content must be an array.
    if (params.name === 'bad_content') return { resultType: 'complete', content: 'not a list' };
  }
  return undefined;
}

/** Starts the raw hostile server on 127.0.0.1 with an ephemeral port. */
export async function startHostileRawServer(): Promise<HostileRawServer> {
  const calls: RawCall[] = [];
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const send = (status: number, body?: unknown) => {
        response.writeHead(
          status,
          body === undefined ? {} : { 'content-type': 'application/json' },
        );
        response.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (request.method !== 'POST') return send(405);
      let message: { id?: unknown; method?: string; params?: Record<string, unknown> };
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Parse error' },
        });
      }
      if (message.id === undefined) return send(202);
      const params = message.params ?? {};
      const meta = (params._meta ?? {}) as Record<string, unknown>;
      if (meta['io.modelcontextprotocol/protocolVersion'] !== version) {
        return send(400, {
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: -32022,
            message: 'Unsupported protocol version',
            data: {
              supported: [version],
              requested: meta['io.modelcontextprotocol/protocolVersion'],
            },
          },
        });
      }
      const result = answer(message.method ?? '', params, calls, message.id);
      if (result === undefined) {
        return send(404, {
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32601, message: 'Method not found' },
        });
      }
      send(200, { jsonrpc: '2.0', id: message.id, result });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
