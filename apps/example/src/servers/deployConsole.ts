import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, createRequestStateCodec } from '@modelcontextprotocol/server';
import { handleCors } from '../host/cors.js';
import { closeServer, listen } from '../host/listen.js';
import { createDeployConsole } from './deployConsoleTools.js';
import type { DeployState } from './deployConsoleTools.js';
import type { RunningServer } from './travelDesk.js';

/**
 * Starts the modern-era Deploy Console on 127.0.0.1 over Streamable HTTP (stateless POSTs, no
 * sessions). It refuses 2025-era traffic so the example shows one server of each era.
 */
export async function startDeployConsole(
  options: { port?: number; key?: Uint8Array } = {},
): Promise<RunningServer> {
  // One process serves every round of a flow, so a per-process key is enough to sign the state —
  // unless a host resumes a flow after a restart (the hosted mode keeps its key in its data folder).
  const key = options.key ?? randomBytes(32);
  const codec = createRequestStateCodec<DeployState>({ key, ttlSeconds: 15 * 60 });
  const mcp = toNodeHandler(
    createMcpHandler(() => createDeployConsole(codec), { legacy: 'reject' }),
  );
  const http = createServer((request, response) => {
    if (handleCors(request, response)) return;
    if (new URL(request.url ?? '/', 'http://local').pathname !== '/mcp') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    void mcp(request, response);
  });
  const baseUrl = await listen(http, options.port ?? 0);
  return { baseUrl, mcpUrl: `${baseUrl}/mcp`, close: () => closeServer(http) };
}
