import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startExample } from '../src/host/startExample.js';
import type { RunningExample } from '../src/host/startExample.js';
import { artifacts } from './browserExample.js';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const child = fileURLToPath(new URL('./hostedChild.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./tsx.tsconfig.json', import.meta.url));

/** A hosted example host running in a process of its own. */
export interface HostProcess {
  process: ChildProcess;
  url: string;
}

/**
 * Starts the hosted example in its own process, on the packages' sources (as vitest runs them);
 * resolves with its URL once it listens.
 */
export async function startHostProcess(
  dataDir: string,
  dist: string,
  port: number,
): Promise<HostProcess> {
  // Node itself with tsx's loader (not the tsx CLI, which runs a second process): the pid killed
  // is the host's.
  const host = spawn(process.execPath, ['--import', 'tsx', child, dataDir, dist, String(port)], {
    cwd: appDir,
    env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: host.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    host.once('exit', (code) => reject(new Error(`The host exited (${code}) before it listened`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  return { process: host, url };
}

/** Ends a host process at once, as a crash would (SIGKILL), and waits until it is gone. */
export async function killHost(host: ChildProcess): Promise<void> {
  if (host.exitCode !== null || host.signalCode !== null) return;
  const exited = new Promise((resolve) => host.once('exit', resolve));
  host.kill('SIGKILL');
  await exited;
}

const vite = fileURLToPath(new URL('../node_modules/.bin/vite', import.meta.url));

/** A hosted host with two people's pages on it: what the hosted Chromium tests share. */
export interface HostedBrowsers {
  /** The host running now; a test that restarts it sets the new one here. */
  host: HostProcess;
  dataDir: string;
  dist: string;
  browser: Browser;
  /** Two browser contexts: two people's browsers (no shared storage), one scope. */
  contexts: [BrowserContext, BrowserContext];
  pages: [Page, Page];
  /** Uncaught errors of either page, to assert there were none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * Builds the page from the packages' sources (EXAMPLE_DIST=<apps/example/dist> uses the production
 * build instead), starts a hosted host in its own process and opens two pages of headless Chromium.
 */
export async function openHostedBrowsers(prefix: string): Promise<HostedBrowsers> {
  const work = await mkdtemp(join(tmpdir(), prefix));
  const dist = process.env.EXAMPLE_DIST ?? join(work, 'dist');
  const dataDir = join(work, 'data');
  if (process.env.EXAMPLE_DIST === undefined) {
    const args = ['build', '--mode', 'source', '--outDir', dist, '--logLevel', 'warn'];
    await promisify(execFile)(vite, args, { cwd: appDir });
  }
  await mkdir(artifacts, { recursive: true });
  const host = await startHostProcess(dataDir, dist, 0);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  const viewport = { viewport: { width: 1360, height: 900 } };
  const contexts = [await browser.newContext(viewport), await browser.newContext(viewport)] as [
    BrowserContext,
    BrowserContext,
  ];
  const pages = [await contexts[0].newPage(), await contexts[1].newPage()] as [Page, Page];
  const pageErrors: string[] = [];
  for (const page of pages) page.on('pageerror', (error) => pageErrors.push(error.message));
  const opened: HostedBrowsers = {
    host,
    dataDir,
    dist,
    browser,
    contexts,
    pages,
    pageErrors,
    async close() {
      await browser.close();
      await killHost(opened.host.process);
      await rm(work, { recursive: true, force: true });
    },
  };
  return opened;
}

/** The hosted example running in this process, as `useHostedExample` hands it to a test file. */
export interface InProcessHost {
  readonly example: RunningExample;
  /** The page's origin: what a POST from the page carries as `Origin`. */
  readonly origin: string;
}

/**
 * Starts the hosted example in this process (a fresh data folder) before the file's tests and
 * stops it after; read `example` and `origin` inside tests and hooks only.
 */
export function useHostedExample(prefix: string): InProcessHost {
  let work: string | undefined;
  let running: RunningExample | undefined;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), prefix));
    running = await startExample({ port: 0, hosted: { dataDir: join(work, 'data') } });
  }, 60_000);
  afterAll(async () => {
    await running?.close();
    if (work !== undefined) await rm(work, { recursive: true, force: true });
  });
  const started = (): RunningExample => {
    if (running === undefined) throw new Error('the hosted example is not running yet');
    return running;
  };
  return {
    get example() {
      return started();
    },
    get origin() {
      return new URL(started().url).origin;
    },
  };
}
