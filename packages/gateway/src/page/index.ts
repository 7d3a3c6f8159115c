/**
 * createPage: where the host cannot ask (it declared no elicitation, or not the mode a question
 * needs), the gateway asks the person itself, on a page of its own (`@waitfor/http` +
 * `@waitfor/react`) served on 127.0.0.1 under an unguessable token. Its questions are kept in a
 * PGlite store in `dataDir`, and so are the token and the port, so a restart keeps both the
 * questions and the link. Give `page.cannotAsk` to createGateway.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decline, type Request } from '@waitfor/core';
import { createStore, pgliteDriver, type StoreInbox } from '@waitfor/store';
import type { CannotAsk } from '../hostSide';
import { lockDir, slotsOf, type DataLock } from './dataLock';
import { keptBounds, keptScope } from './keptAnswers';
import { PageQuestions, pageScope, type PagePolicy } from './questions';
import { servePage } from './server';

export type { PagePolicy } from './questions';

/** Options of createPage. */
export interface PageOptions extends PagePolicy {
  /** Where the questions, the token and the port are kept; undefined: in memory (gone with the process). */
  dataDir?: string;
  /** The built page (default: the one in this package's dist). */
  assetsDir?: string;
  /** Open the link in a browser at the first question, where a desktop exists (default false). */
  open?: boolean;
  /** Where the link and what the page did are said (default: standard error). */
  log?: (line: string) => void;
}

/** The running page. */
export interface Page {
  /** The link to give the person: `http://127.0.0.1:<port>/<token>/`. */
  readonly url: string;
  /** Where its questions are kept: `dataDir`, or a slot in it another gateway left free; undefined: in memory. */
  readonly dataDir: string | undefined;
  /** The gateway's seam (GatewayOptions.cannotAsk). */
  readonly cannotAsk: CannotAsk;
  /** The store's inbox of the page's questions (what the page lists and answers). */
  readonly inbox: StoreInbox;
  /**
   * Calls that end from now on leave their questions on the page (call it when the host went
   * away, before the gateway closes): only a call the host cancelled withdraws its question.
   */
  keep(): void;
  /** Keeps every question (see keep) and closes the store and the server. */
  close(): Promise<void>;
}

/** The per-user state directory of an upstream: one per upstream, so two gateways never share one. */
export function defaultDataDir(upstream: unknown): string {
  const home = homedir();
  const base =
    process.platform === 'win32'
      ? (process.env['LOCALAPPDATA'] ?? join(home, 'AppData', 'Local'))
      : process.platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : (process.env['XDG_STATE_HOME'] ?? join(home, '.local', 'state'));
  const key = createHash('sha256').update(JSON.stringify(upstream)).digest('hex').slice(0, 16);
  return join(base, 'waitfor-gateway', key);
}

/** The token and the port of the last run (a fresh token on the first). */
async function linkState(dataDir: string | undefined): Promise<{ token: string; port?: number }> {
  const fresh = { token: randomBytes(32).toString('base64url') };
  if (dataDir === undefined) return fresh;
  try {
    const saved = JSON.parse(await readFile(join(dataDir, 'page.json'), 'utf8')) as unknown;
    const { token, port } = (saved ?? {}) as { token?: unknown; port?: unknown };
    if (typeof token === 'string' && /^[\w-]{43}$/.test(token))
      return { token, ...(Number.isInteger(port) ? { port: port as number } : {}) };
  } catch {
    // First run, or unreadable: a fresh token.
  }
  return fresh;
}

/** Open `url` in the person's browser where a desktop exists; nothing happens elsewhere. */
function openLink(url: string): void {
  const desktop =
    process.platform === 'darwin' ||
    process.platform === 'win32' ||
    process.env['DISPLAY'] !== undefined ||
    process.env['WAYLAND_DISPLAY'] !== undefined;
  if (!desktop) return;
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command as string, args as string[], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the link on standard error is enough.
  }
}

const builtPage = () => fileURLToPath(new URL('./page/', import.meta.url));

/**
 * The first slot of `dataDir` no other gateway holds (see dataLock.ts); none: undefined, and the
 * questions are kept in memory only.
 */
async function takeDataDir(
  dataDir: string | undefined,
  log: (line: string) => void,
): Promise<DataLock | undefined> {
  if (dataDir === undefined) return undefined;
  for (const dir of slotsOf(dataDir)) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const lock = await lockDir(dir);
    if (lock === undefined) continue;
    if (dir !== dataDir)
      log(`another gateway keeps its questions in ${dataDir}: this one in ${dir}`);
    return lock;
  }
  log(`every slot of ${dataDir} is held by another gateway: questions are kept in memory only`);
  return undefined;
}

/** Open the store, serve the page, and return the seam that asks through it. */
export async function createPage(options: PageOptions = {}): Promise<Page> {
  const log = options.log ?? ((line) => process.stderr.write(`waitfor-gateway: ${line}\n`));
  keptBounds(options); // refused before anything opens
  const lock = await takeDataDir(options.dataDir, log);
  const dataDir = lock?.dir;
  let store: Awaited<ReturnType<typeof createStore>>;
  try {
    store = await createStore({
      driver: pgliteDriver(dataDir === undefined ? {} : { dataDir: join(dataDir, 'pglite') }),
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  try {
    const inbox = await store.inbox(pageScope, { answeredBy: 'page' });
    const keptInbox = await store.inbox(keptScope, { answeredBy: 'gateway' });
    const saved = await linkState(dataDir);
    const server = await servePage({
      inbox,
      token: saved.token,
      assetsDir: options.assetsDir ?? builtPage(),
      ...(saved.port === undefined ? {} : { port: saved.port }),
    });
    if (dataDir !== undefined)
      await writeFile(
        join(dataDir, 'page.json'),
        JSON.stringify({ token: saved.token, port: server.port }),
        { mode: 0o600 },
      );
    log(`questions your host cannot ask are answered at ${server.url}`);
    let opened = options.open !== true;
    const asked = (request: Request) => {
      log(`a question waits for you at ${server.url} ("${request.prompt}")`);
      if (!opened) openLink(server.url);
      opened = true;
    };
    const questions = new PageQuestions(store, inbox, keptInbox, options, { asked, log });
    return {
      url: server.url,
      dataDir,
      cannotAsk: questions.cannotAsk,
      inbox,
      keep: () => questions.keep(),
      close: async () => {
        questions.close();
        await server.close();
        await store.close();
        await lock?.release();
      },
    };
  } catch (error) {
    await store.close();
    await lock?.release();
    throw error;
  }
}

/** A page started when first needed, or at once when `dataDir` keeps questions of an earlier run. */
export interface LazyPage {
  readonly cannotAsk: CannotAsk;
  /** The page, once something started it. */
  started(): Promise<Page> | undefined;
  /** See Page.keep (also for questions of a page still starting). */
  keep(): void;
  close(): Promise<void>;
}

/**
 * The page of the command: no store, no port and no browser until a host cannot ask. A data
 * directory that served a page before starts it at once, so an open tab reconnects after a restart.
 */
export function lazyPage(options: PageOptions): LazyPage {
  const log = options.log ?? ((line) => process.stderr.write(`waitfor-gateway: ${line}\n`));
  let page: Promise<Page> | undefined;
  let keeping = false;
  let running: Page | undefined;
  const start = () => {
    page ??= createPage({ ...options, log }).then((started) => {
      running = started;
      if (keeping) started.keep();
      return started;
    });
    page.catch(() => (page = undefined));
    return page;
  };
  if (options.dataDir !== undefined && existsSync(join(options.dataDir, 'page.json')))
    start().catch((error: unknown) => log(`the page did not start: ${String(error)}`));
  return {
    cannotAsk: (side, call, question) => {
      start().then(
        (started) => {
          if (!question.signal.aborted) started.cannotAsk(side, call, question);
        },
        (error: unknown) => {
          log(`the page did not start (${String(error)}): declined upstream`);
          question.settle(decline(question.request));
        },
      );
    },
    started: () => page,
    // At once: the calls that end right after (in this turn) must find their questions kept.
    keep: () => {
      keeping = true;
      running?.keep();
    },
    close: async () => {
      await (await page?.catch(() => undefined))?.close();
    },
  };
}
