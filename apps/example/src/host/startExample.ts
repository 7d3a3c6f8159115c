import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startDeployConsole } from '../servers/deployConsole.js';
import { createSignInDesk } from '../servers/signInDesk.js';
import type { SignInDesk } from '../servers/signInDesk.js';
import { startTravelDesk } from '../servers/travelDesk.js';
import { closeServer, listen } from './listen.js';
import { serveStatic } from './staticFiles.js';

/** One MCP server the page connects to (served at `/config.json`). */
export interface ExampleServerConfig {
  name: string;
  era: 'legacy' | 'modern';
  url: string;
}

/** Where the example host listens and what it serves. */
export interface StartExampleOptions {
  /** Port of the page; 0 (the default for tests) picks a free one. The servers always pick free ports. */
  port?: number;
  /** The Vite build to serve; defaults to apps/example/dist. */
  distDir?: string;
}

/** A running example: the page URL, both MCP endpoints, and how to stop everything. */
export interface RunningExample {
  url: string;
  servers: ExampleServerConfig[];
  /** The sign-in page registry (the terminal walkthrough prints its URLs). */
  signIns: SignInDesk;
  /** Stops one MCP server by name while the page stays up (a server that went away, for tests). */
  stopServer(name: string): Promise<void>;
  close(): Promise<void>;
}

const defaultDist = fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * Starts everything on 127.0.0.1: the legacy-era Travel Desk (v1 SDK), the modern-era Deploy
 * Console (v2 SDK), and the page host that serves the built page plus `/config.json` naming both.
 */
export async function startExample(options: StartExampleOptions = {}): Promise<RunningExample> {
  const signIns = createSignInDesk();
  const travelDesk = await startTravelDesk({ signIns });
  const deployConsole = await startDeployConsole().catch(async (error: unknown) => {
    await travelDesk.close();
    throw error;
  });
  const servers: ExampleServerConfig[] = [
    { name: 'Travel Desk', era: 'legacy', url: travelDesk.mcpUrl },
    { name: 'Deploy Console', era: 'modern', url: deployConsole.mcpUrl },
  ];
  const distDir = options.distDir ?? defaultDist;
  const page = createServer((request, response) => {
    if (new URL(request.url ?? '/', 'http://local').pathname === '/config.json') {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify({ servers }));
      return;
    }
    serveStatic(distDir, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  let url: string;
  try {
    url = await listen(page, options.port ?? 0);
  } catch (error) {
    await Promise.all([travelDesk.close(), deployConsole.close()]);
    throw error;
  }
  let closing: Promise<void> | undefined;
  const stoppers = new Map([
    ['Travel Desk', travelDesk],
    ['Deploy Console', deployConsole],
  ]);
  return {
    url: `${url}/`,
    servers,
    signIns,
    async stopServer(name) {
      const server = stoppers.get(name);
      if (server === undefined) throw new Error(`No server is named ${name}`);
      await server.close();
    },
    close() {
      closing ??= Promise.all([closeServer(page), travelDesk.close(), deployConsole.close()]).then(
        () => undefined,
      );
      return closing;
    },
  };
}
