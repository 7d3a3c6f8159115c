/**
 * A small v1 (`@modelcontextprotocol/sdk`) stdio server that pushes `elicitation/create` directly
 * through `extra.sendRequest`, without checking the client's declared modes — so tests can see how
 * a client refuses an undeclared mode (-32602). Run: `tsx v1PushServer.ts`.
 *
 * Tools: `push {mode: 'form'|'url', timeoutMs?}` → text "accept:{…}" / "decline" / "cancel" /
 * "error:<code>" (with `timeoutMs`, the server gives up on the push after that long, as the v1 SDK
 * does: it sends notifications/cancelled and the tool answers "error:-32001");
 * `exit` → the process exits while the call is open (the client sees its connection close).
 * Prompts: `fail {message}` → a JSON-RPC error response -32000 with exactly that message.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ElicitResultSchema, EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const server = new McpServer({ name: 'v1-push-fixture', version: '1.0.0' });

server.registerTool(
  'push',
  { inputSchema: { mode: z.enum(['form', 'url']), timeoutMs: z.number().optional() } },
  async ({ mode, timeoutMs }, extra) => {
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
      // The v1 SDK ignores a notifications/cancelled for request id 0 (`if (!requestId) return`
      // in its Protocol): a ping first, so the push that may be cancelled never has that id.
      if (timeoutMs !== undefined)
        await extra.sendRequest({ method: 'ping' } as never, EmptyResultSchema);
      const result = await extra.sendRequest(
        { method: 'elicitation/create', params } as never,
        ElicitResultSchema,
        timeoutMs === undefined ? undefined : { timeout: timeoutMs },
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

server.registerTool('exit', {}, async () => {
  setTimeout(() => process.exit(0), 20);
  return new Promise<never>(() => {});
});

server.registerPrompt('fail', { argsSchema: { message: z.string() } }, async ({ message }) => {
  // Not an McpError, whose message would carry its "MCP error -32000: " prefix onto the wire.
  throw Object.assign(new Error(message), { code: -32000 });
});

await server.connect(new StdioServerTransport());
