/**
 * The page in Debian's Chromium (playwright-core), with the command as a host runs it: a v2 SDK
 * client pinned to 2026-07-28 that declares no elicitation spawns `waitfor-gateway --data <dir>
 * --no-open -- <dual-era fixture over stdio>` and calls a tool whose question needs a person. The
 * call waits; the person answers on the page; a reload keeps the question; the gateway killed
 * (SIGKILL) and started again on the same data directory keeps the question and the link, and the
 * host's re-issued call completes with the answer given on the page — before or after it was
 * re-issued, and an answer given before survives a second kill. A request without the token is
 * refused 403.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  childTsconfig,
  gatewayBin,
  openHost,
  textOf,
  tsxBinary,
  type Host,
} from '../__fixtures__/hosts';

const vite = fileURLToPath(new URL('../../node_modules/.bin/vite', import.meta.url));
const viteConfig = fileURLToPath(new URL('./vite.config.ts', import.meta.url));
const dualEraStdio = fileURLToPath(
  new URL('../../../mcp-bridge/src/__fixtures__/dualEraServerStdio.ts', import.meta.url),
);

let work: string;
let dist: string;
let dataDir: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const hosts: Host[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'waitfor-gateway-page-'));
  dist = join(work, 'dist');
  dataDir = join(work, 'data');
  const args = ['build', '--config', viteConfig, '--mode', 'source', '--outDir', dist];
  await promisify(execFile)(vite, [...args, '--logLevel', 'warn']);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
  });
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(hosts.map((host) => host.close().catch(() => undefined)));
  await rm(work, { recursive: true, force: true });
});

/** A host that declares no elicitation, running the gateway command; the link it prints, its log. */
async function startHost(): Promise<{ host: Host; link: Promise<string>; logs: string[] }> {
  // The env passes through to the SDK's stdio transport.
  const target = {
    // Node itself with tsx's loader (not the tsx CLI, which runs a second process): the pid
    // killed is the gateway's.
    command: process.execPath,
    args: [
      '--conditions=@waitfor/source',
      '--import',
      'tsx',
      gatewayBin,
      '--data',
      dataDir,
      '--no-open',
      '--page-dir',
      dist,
      '--',
      tsxBinary,
      dualEraStdio,
    ],
    env: { ...process.env, TSX_TSCONFIG_PATH: childTsconfig } as Record<string, string>,
  };
  const host = await openHost(
    'v2-modern',
    target,
    () => Promise.reject(new Error('this host cannot be asked')),
    'none',
  );
  hosts.push(host);
  const transport = (host.raw as unknown as { transport: StdioClientTransport }).transport;
  const lines = createInterface({ input: transport.stderr as unknown as NodeJS.ReadableStream });
  const logs: string[] = [];
  const link = new Promise<string>((resolve) =>
    lines.on('line', (line) => {
      logs.push(line);
      const found = /(http:\/\/127\.0\.0\.1:\d+\/[\w-]{43}\/)/.exec(line);
      if (found?.[1] !== undefined) resolve(found[1]);
    }),
  );
  return { host, link, logs };
}

/** The gateway ends as a crash would: its host's call fails, nothing is cleaned up. */
async function killGateway(host: Host): Promise<void> {
  const transport = (host.raw as unknown as { transport: StdioClientTransport }).transport;
  const pid = transport.pid;
  if (pid === null) throw new Error('the gateway runs no process');
  process.kill(pid, 'SIGKILL');
  await expect.poll(() => isRunning(pid), { timeout: 20_000 }).toBe(false);
}

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const questions = () => page.locator('.waitfor-item');
const whoAreYou = () => questions().filter({ hasText: 'Who are you?' });

/** The person answers "Who are you?" on the page. */
async function answerOnPage(name: string): Promise<void> {
  await expect.poll(() => whoAreYou().count(), { timeout: 30_000 }).toBe(1);
  await whoAreYou().getByLabel('Name').fill(name);
  await whoAreYou().getByRole('button', { name: 'Accept' }).click();
  await expect.poll(() => whoAreYou().count(), { timeout: 30_000 }).toBe(0);
}

describe('the page of a host that cannot ask, in Chromium', () => {
  let link: string;

  test('the call waits, the person answers on the page (a reload keeps the question), the call completes', async () => {
    const started = await startHost();
    const call = started.host.callTool('ask_form', {});
    let settled = false;
    void call.finally(() => (settled = true));
    link = await started.link;
    await page.goto(link);
    await expect.poll(() => whoAreYou().count(), { timeout: 30_000 }).toBe(1);
    await page.reload();
    await expect.poll(() => whoAreYou().count(), { timeout: 30_000 }).toBe(1);
    expect(settled).toBe(false);
    await answerOnPage('Ada');
    expect(textOf(await call)).toBe('accept:{"name":"Ada","age":30,"color":"blue"}');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  test('every request without the token, with another one, or naming another host is refused 403', async () => {
    const { origin, pathname } = new URL(link);
    const token = pathname.split('/')[1] as string;
    const other = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      '/',
      '/index.html',
      `/${other}/`,
      `/${other}/api/inbox/requests`,
      '/api/inbox/requests',
    ])
      expect((await fetch(`${origin}${path}`)).status, path).toBe(403);
    const localhost = link.replace('127.0.0.1', 'localhost');
    expect((await fetch(`${localhost}api/inbox/requests`)).status).toBe(403);
    const listed = await fetch(`${link}api/inbox/requests`);
    expect(listed.status).toBe(200);
    expect(
      listed.headers.get('referrer-policy') ?? (await fetch(link)).headers.get('referrer-policy'),
    ).toBe('no-referrer');
  });

  test('a restart keeps the question and the link; the re-issued call completes with the page answer', async () => {
    const first = hosts.at(-1) as Host;
    // Its end is awaited from the start: the call fails as soon as the process dies, before the
    // kill's wait returns.
    const held = first.callTool('ask_form', {}).then(
      () => 'completed',
      () => 'failed',
    );
    await expect.poll(() => whoAreYou().count(), { timeout: 30_000 }).toBe(1);
    await killGateway(first);
    expect(await held).toBe('failed');

    // A new process on the same data directory: the page is up again at once, at the same link,
    // and lists the question before any call asks it again.
    const second = await startHost();
    expect(await second.link).toBe(link);
    await page.reload();
    await expect.poll(() => whoAreYou().count(), { timeout: 30_000 }).toBe(1);

    // The host's retry asks the upstream again; the same question finds the kept one (one listed).
    const retried = second.host.callTool('ask_form', {});
    let settled = false;
    void retried.finally(() => (settled = true));
    await expect.poll(() => page.locator('.waitfor-item').count(), { timeout: 10_000 }).toBe(1);
    expect(settled).toBe(false);
    await answerOnPage('Grace');
    expect(textOf(await retried)).toBe('accept:{"name":"Grace","age":30,"color":"blue"}');
  }, 180_000);

  test('the host quits (stdin closes) and starts again; answered before its retry, the answer outlives a kill and the retry gets it at once, once', async () => {
    const running = hosts.at(-1) as Host;
    const held = running.callTool('ask_form', {}).then(
      () => 'completed',
      () => 'failed',
    );
    await expect.poll(() => whoAreYou().count(), { timeout: 30_000 }).toBe(1);
    // A graceful end this time: the gateway ends the call on its way out but keeps the question.
    const pid = (running.raw as unknown as { transport: StdioClientTransport }).transport.pid;
    await running.close();
    expect(await held).toBe('failed');
    await expect.poll(() => isRunning(pid as number), { timeout: 20_000 }).toBe(false);
    const next = await startHost();
    expect(await next.link).toBe(link);
    await page.reload();
    // The person answers before the host calls again: the answer waits for the re-issued call,
    // in the store, so a crash before that call keeps it too.
    await answerOnPage('Linus');
    await expect
      .poll(() => next.logs.some((line) => /kept for the host's re-issued call/.test(line)), {
        timeout: 30_000,
      })
      .toBe(true);
    await killGateway(next.host);
    const after = await startHost();
    expect(await after.link).toBe(link);
    await page.reload();
    expect(textOf(await after.host.callTool('ask_form', {}))).toBe(
      'accept:{"name":"Linus","age":30,"color":"blue"}',
    );
    expect(await questions().count()).toBe(0);
    // Used once: the same call again is asked on the page again.
    const again = after.host.callTool('ask_form', {});
    await answerOnPage('Ken');
    expect(textOf(await again)).toBe('accept:{"name":"Ken","age":30,"color":"blue"}');
  }, 240_000);

  test('a call the host cancels: the page says the question was withdrawn', async () => {
    const running = hosts.at(-1) as Host;
    const abort = new AbortController();
    const call = running.callTool('ask_form', { reason: 'withdrawn' }, { signal: abort.signal });
    await expect.poll(() => whoAreYou().count(), { timeout: 30_000 }).toBe(1);
    abort.abort(new Error('the host gave up'));
    await expect(call).rejects.toThrow();
    const note = page.locator('[data-withdrawn]').filter({ hasText: 'Who are you?' });
    await expect.poll(() => note.count(), { timeout: 30_000 }).toBe(1);
    expect(await note.textContent()).toMatch(/Withdrawn: .*Who are you\?.*ended/);
    expect(await whoAreYou().count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
