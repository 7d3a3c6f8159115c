import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInboxHandler } from '@waitfor/http';
import { toNodeListener } from '@waitfor/http/node';
import { startDeployConsole } from '../servers/deployConsole.js';
import { createSignInDesk } from '../servers/signInDesk.js';
import type { SignInDesk } from '../servers/signInDesk.js';
import { startTravelDesk } from '../servers/travelDesk.js';
import { apiPath, createHostedApi } from './hostedApi.js';
import { exampleScope, startHostedSession } from './hostedSession.js';
import type { HostedSession } from './hostedSession.js';
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
  /**
   * The hosted mode: the MCP clients run in this host, questions are kept in PGlite in `dataDir`,
   * the page answers through `/api/inbox`. Without it the page runs its own clients (in-page mode).
   * `trace` prints a span per call of the host's clients and per question to the console.
   */
  hosted?: { dataDir: string; trace?: boolean };
}

/** A running example: the page URL, both MCP endpoints, and how to stop everything. */
export interface RunningExample {
  url: string;
  servers: ExampleServerConfig[];
  /** The sign-in page registry (the terminal walkthrough prints its URLs). */
  signIns: SignInDesk;
  /** `hosted` or `page`: where the MCP clients run. */
  mode: 'hosted' | 'page';
  /** Stops one MCP server by name while the page stays up (a server that went away, for tests). */
  stopServer(name: string): Promise<void>;
  close(): Promise<void>;
}

type NodeListener = ReturnType<typeof toNodeListener>;

const defaultDist = fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * Starts everything on 127.0.0.1: the legacy-era Travel Desk (v1 SDK), the modern-era Deploy
 * Console (v2 SDK), and the page host that serves the built page plus `/config.json` naming both.
 */
export async function startExample(options: StartExampleOptions = {}): Promise<RunningExample> {
  const signIns = createSignInDesk();
  const travelDesk = await startTravelDesk({ signIns });
  // The hosted mode resumes Deploy Console flows after a restart: their state is signed with a key
  // kept in the data folder, so the restarted server accepts it.
  const key = options.hosted === undefined ? undefined : await stateKey(options.hosted.dataDir);
  const deployConsole = await startDeployConsole(key === undefined ? {} : { key }).catch(
    async (error: unknown) => {
      await travelDesk.close();
      throw error;
    },
  );
  const servers: ExampleServerConfig[] = [
    { name: 'Travel Desk', era: 'legacy', url: travelDesk.mcpUrl },
    { name: 'Deploy Console', era: 'modern', url: deployConsole.mcpUrl },
  ];
  const distDir = options.distDir ?? defaultDist;
  const mode = options.hosted === undefined ? 'page' : 'hosted';
  // The hosted mode's endpoints, set once the page's origin (its port) is known.
  let api: NodeListener | undefined;
  let inboxApi: NodeListener | undefined;
  const page = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://local').pathname;
    if (path === '/config.json') {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify({ servers, mode }));
      return;
    }
    if (path === `${apiPath}/inbox` || path.startsWith(`${apiPath}/inbox/`)) {
      if (inboxApi !== undefined) return inboxApi(request, response);
    } else if (path.startsWith(`${apiPath}/`) && api !== undefined) return api(request, response);
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
  let session: HostedSession | undefined;
  let closeStreams = () => {};
  if (options.hosted !== undefined) {
    const origins = [url, url.replace('127.0.0.1', 'localhost')];
    try {
      session = await startHostedSession(options.hosted.dataDir, servers, options.hosted.trace);
    } catch (error) {
      await Promise.all([closeServer(page), travelDesk.close(), deployConsole.close()]);
      throw error;
    }
    const inbox = session.inbox;
    const handler = createInboxHandler({
      basePath: `${apiPath}/inbox`,
      allowedOrigins: origins,
      // One person in the example; a real host returns the signed-in user's scope, or null (401).
      authorize: () => exampleScope,
      inboxFor: () => inbox,
    });
    const hostedApi = createHostedApi(session, origins);
    closeStreams = () => {
      handler.closeStreams();
      hostedApi.closeStreams();
    };
    inboxApi = toNodeListener(handler);
    api = toNodeListener(hostedApi);
  }
  let closing: Promise<void> | undefined;
  const stoppers = new Map([
    ['Travel Desk', travelDesk],
    ['Deploy Console', deployConsole],
  ]);
  return {
    url: `${url}/`,
    servers,
    mode,
    signIns,
    async stopServer(name) {
      const server = stoppers.get(name);
      if (server === undefined) throw new Error(`No server is named ${name}`);
      await server.close();
    },
    close() {
      closeStreams();
      closing ??= Promise.all([closeServer(page), session?.close()])
        .then(() => Promise.all([travelDesk.close(), deployConsole.close()]))
        .then(() => undefined);
      return closing;
    },
  };
}

/** The Deploy Console's state key, kept in the data folder (made on first start). */
async function stateKey(dataDir: string): Promise<Uint8Array> {
  await mkdir(dataDir, { recursive: true });
  const file = join(dataDir, 'deploy-console.key');
  const saved = await readFile(file, 'utf8').catch(() => undefined);
  if (saved !== undefined && /^[0-9a-f]{64}$/.test(saved.trim()))
    return Buffer.from(saved.trim(), 'hex');
  const key = randomBytes(32);
  await writeFile(file, key.toString('hex'), { mode: 0o600 });
  return key;
}
