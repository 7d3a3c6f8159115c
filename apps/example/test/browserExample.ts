import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { startExample } from '../src/host/startExample.js';
import type { RunningExample } from '../src/host/startExample.js';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const vite = fileURLToPath(new URL('../node_modules/.bin/vite', import.meta.url));

/** Where the e2e tests write screenshots (gitignored). */
export const artifacts = fileURLToPath(new URL('../../../artifacts/', import.meta.url));

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The example served to one real headless Chromium, and how to take it all down. */
export interface BrowserExample {
  example: RunningExample;
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page, to assert there were none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * Builds the page from the packages' sources (EXAMPLE_DIST=<apps/example/dist> uses the production
 * build instead), starts the example and opens it in Chromium.
 */
export async function openBrowserExample(): Promise<BrowserExample> {
  const work = await mkdtemp(join(tmpdir(), 'waitfor-e2e-'));
  const dist = process.env.EXAMPLE_DIST ?? join(work, 'dist');
  if (process.env.EXAMPLE_DIST === undefined) {
    const args = ['build', '--mode', 'source', '--outDir', dist, '--logLevel', 'warn'];
    await promisify(execFile)(vite, args, { cwd: appDir });
  }
  await mkdir(artifacts, { recursive: true });
  const example = await startExample({ port: 0, distDir: dist });
  const context = await chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1360, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    example,
    context,
    page,
    pageErrors,
    async close() {
      await context.close();
      await example.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's violations on the whole page, as "rule: help (selectors)" lines. */
export async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource });
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return (found as AxeViolation[]).map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
  );
}
