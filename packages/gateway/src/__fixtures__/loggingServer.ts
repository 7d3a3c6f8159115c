/**
 * An upstream that logs: the tool `log_levels` writes one line at each of four levels (data
 * `"<level> line"`, least severe first) through the SDK's request logger, which keeps each era's
 * rule — a 2025 session's level set with logging/setLevel, a 2026-07-28 request's own `_meta` level
 * (none: no lines). Both eras at /mcp, over the gateway's own HTTP endpoint code.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveMcpHttp, type HttpEndpoint } from '../http';

/** The levels `log_levels` logs at, in order. */
export const LOGGED_LEVELS = ['debug', 'info', 'warning', 'error'] as const;

function createLoggingServer(): McpServer {
  const server = new McpServer(
    { name: 'waitfor-logging-fixture', version: '1.0.0' },
    { capabilities: { tools: {}, logging: {} } },
  );
  server.registerTool('log_levels', { description: 'Logs one line per level' }, async (context) => {
    for (const level of LOGGED_LEVELS) await context.mcpReq.log(level, `${level} line`);
    return { content: [{ type: 'text', text: 'logged' }] };
  });
  return server;
}

/** The logging upstream over Streamable HTTP on 127.0.0.1. */
export function startLoggingServer(): Promise<HttpEndpoint> {
  return serveMcpHttp(() => createLoggingServer());
}
