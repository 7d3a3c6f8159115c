/**
 * A stdio MCP server (v2 SDK, either era) whose `grow` tool registers a new tool, so the SDK sends
 * notifications/tools/list_changed: `tsx growingServer.ts`.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

serveStdio(() => {
  const server = new McpServer(
    { name: 'growing', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  let grown = 0;
  server.registerTool('grow', { description: 'Adds a tool' }, async () => {
    grown += 1;
    server.registerTool(`grown_${grown}`, { description: 'Grown' }, async () => ({
      content: [{ type: 'text' as const, text: 'grown' }],
    }));
    return { content: [{ type: 'text' as const, text: `grown_${grown}` }] };
  });
  return server;
});
