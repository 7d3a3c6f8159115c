/**
 * A small v1 (`@modelcontextprotocol/sdk`) stdio server that pushes `elicitation/create` directly
 * through `extra.sendRequest`, without checking the client's declared modes — so tests can see how
 * a client refuses an undeclared mode (-32602). Run: `tsx v1PushServer.ts`.
 *
 * Tools: `push {mode: 'form'|'url'}` → text "accept:{…}" / "decline" / "cancel" / "error:<code>".
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const server = new McpServer({ name: 'v1-push-fixture', version: '1.0.0' });

server.registerTool(
  'push',
  { inputSchema: { mode: z.enum(['form', 'url']) } },
  async ({ mode }, extra) => {
    const params =
      mode === 'url'
        ? {
            mode: 'url',
            message: 'Visit',
            url: 'https://example.com/v1',
            elicitationId: 'v1-elicitation-1',
          }
        : {
            mode: 'form',
            message: 'Name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          };
    try {
      const result = await extra.sendRequest(
        { method: 'elicitation/create', params } as never,
        ElicitResultSchema,
      );
      const text =
        result.action === 'accept' && result.content !== undefined
          ? `accept:${JSON.stringify(result.content)}`
          : result.action;
      return { content: [{ type: 'text', text }] };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      return { content: [{ type: 'text', text: `error:${String(code)}` }] };
    }
  },
);

await server.connect(new StdioServerTransport());
