/**
 * A v2 `@modelcontextprotocol/server` over Streamable HTTP (`createMcpHandler`, modern era only)
 * whose tools declare SEP-2243 `x-mcp-header`s on their arguments, recording the `Mcp-Param-*`
 * headers of every POST it receives. The SDK's HTTP entry checks those headers against the body
 * before dispatch: one missing or disagreeing is answered HEADER_MISMATCH (HTTP 400, -32020).
 *
 * Tools (both ask one question first, `input_required`, and answer on the retry):
 * - `mirrored {region, tenant: {id}, verbose, note}`: `region` (string) is mirrored as
 *   `Mcp-Param-Region` (renamed by `renameRegionHeader`, as a server whose tool changed),
 *   `tenant.id` (integer) as `Mcp-Param-Tenant-Id`, `verbose` (boolean) as `Mcp-Param-Verbose`;
 *   `note` is not mirrored. Answers `region=<region> ok=<answer>`.
 * - `structured {region}`: `region` mirrored as `Mcp-Param-Region`, with an outputSchema.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  acceptedContent,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  McpServer,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

/** One JSON-RPC message POSTed to the server, with the request's `mcp-param-*` headers. */
export interface ParamRequest {
  method: string | undefined;
  params: Record<string, unknown> | undefined;
  /** The `mcp-param-*` headers, names lower-cased (as Node reads them). */
  headers: Record<string, string>;
}

/** A running fixture. */
export interface McpParamServer {
  url: string;
  /** Every JSON-RPC request POSTed so far, in arrival order. */
  received: ParamRequest[];
  /** From now on `mirrored` declares its `region` as `Mcp-Param-<name>`. */
  renameRegionHeader(name: string): void;
  close(): Promise<void>;
}

const confirm = inputRequired.elicit({
  message: 'Go ahead?',
  requestedSchema: {
    type: 'object',
    properties: { ok: { type: 'boolean' } },
    required: ['ok'],
  } as never,
});

/** A JSON Schema input schema as written (the SDK's JSON Schema type has no `x-mcp-header`). */
const jsonSchema = (schema: object) =>
  fromJsonSchema<{ region?: string }>(schema as Parameters<typeof fromJsonSchema>[0]);

function createMcpParamServer(regionHeader: string): McpServer {
  const server = new McpServer(
    { name: 'mcp-param-fixture', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'mirrored',
    {
      description: 'Mirrors three arguments into Mcp-Param headers',
      inputSchema: jsonSchema({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': regionHeader },
          tenant: {
            type: 'object',
            properties: { id: { type: 'integer', 'x-mcp-header': 'Tenant-Id' } },
          },
          verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
          note: { type: 'string' },
        },
      }),
    },
    async ({ region }, context) => {
      const answer = acceptedContent<{ ok: boolean }>(context.mcpReq.inputResponses, 'confirm');
      if (answer === undefined) return inputRequired({ inputRequests: { confirm } });
      return { content: [{ type: 'text', text: `region=${region} ok=${answer.ok}` }] };
    },
  );
  server.registerTool(
    'structured',
    {
      description: 'Mirrors region, has an outputSchema',
      inputSchema: jsonSchema({
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      }),
      outputSchema: z.object({ region: z.string() }),
    },
    async ({ region }, context) => {
      const answer = acceptedContent<{ ok: boolean }>(context.mcpReq.inputResponses, 'confirm');
      if (answer === undefined) return inputRequired({ inputRequests: { confirm } });
      return {
        content: [{ type: 'text', text: `region=${region}` }],
        structuredContent: { region: region ?? '' },
      };
    },
  );
  return server;
}

/** Start the fixture on 127.0.0.1 with an ephemeral port. */
export async function startMcpParamServer(): Promise<McpParamServer> {
  const received: ParamRequest[] = [];
  let regionHeader = 'Region';
  const handler = toNodeHandler(
    createMcpHandler(() => createMcpParamServer(regionHeader), { legacy: 'reject' }),
  );
  const server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text === '' ? undefined : (JSON.parse(text) as unknown);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (name.startsWith('mcp-param-') && typeof value === 'string') headers[name] = value;
      for (const message of Array.isArray(body) ? body : [body]) {
        const { method, params } = (message ?? {}) as Omit<ParamRequest, 'headers'>;
        if (method !== undefined) received.push({ method, params, headers });
      }
      await handler(request, response, body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    renameRegionHeader: (name) => {
      regionHeader = name;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
