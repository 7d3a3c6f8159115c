// @vitest-environment node
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { version } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer, Request } from '@waitfor/core';
import { everyRequest } from './__fixtures__/everyView.js';

// A small page built from the sources (a RequestList over an inbox) in Debian's Chromium: what a
// keyboard and screen-reader user meets — announcements, focus after answering, Escape — and
// axe-core on the states only interaction reaches.

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const sources: Record<string, string> = {
  '@waitfor/core': here('../../core/src/index.ts'),
  '@waitfor/core/form': here('../../core/src/form.ts'),
  '@waitfor/react': here('./index.ts'),
};

interface PageApi {
  waitforPage: { ask(request: Request): void; answer(id: string): Answer | undefined };
}

async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [here('./__fixtures__/browserPage.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
    plugins: [
      {
        name: 'waitfor-sources',
        setup(plugin) {
          plugin.onResolve({ filter: /^@waitfor\/(core|core\/form|react)$/ }, (args) => ({
            path: sources[args.path]!,
          }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}

// One browser run is enough: the react-18 project skips it.
describe.skipIf(!version.startsWith('19.'))('the list in Chromium, by keyboard', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const script = await bundlePage();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    page = await browser.newPage();
    await page.setContent(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>waitfor</title></head>' +
        '<body><main><h1>Questions</h1><div id="root"></div></main></body></html>',
    );
    await page.addScriptTag({ content: script, type: 'module' });
    await page.addScriptTag({ path: axePath });
    await page.waitForSelector('.waitfor-empty');
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  // A real browser on a busy shared machine: a condition gets time to come true, never a sleep.
  const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000 });
  const ask = (request: Request) =>
    page.evaluate((each) => (window as unknown as PageApi).waitforPage.ask(each), request);
  const answerOf = (id: string) =>
    page.evaluate((each) => (window as unknown as PageApi).waitforPage.answer(each), id);
  const focused = () =>
    page.evaluate(() => ({
      text: document.activeElement?.textContent,
      className: document.activeElement?.className,
    }));
  const violations = async () => {
    const result = await page.evaluate(() =>
      (
        window as unknown as {
          axe: { run(): Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> };
        }
      ).axe.run(),
    );
    return result.violations.map(({ id, nodes }) => ({ id, count: nodes.length }));
  };

  it('announces arrivals, shows refused fields, cancels on Escape and moves focus to the next question', async () => {
    const announcer = page.locator('.waitfor-announcer');
    await ask(everyRequest.form);
    await poll(() => announcer.textContent()).toBe('New question from Reisebüro: Welche Region?');
    await ask({
      id: 'second',
      kind: 'approval',
      prompt: 'Second?',
      data: { origin: { server: 'CI' } },
    });
    await poll(() => announcer.textContent()).toBe('New question from CI: Second?');

    // An accept with required fields empty: the errors are shown, focus goes to the first one.
    await page.getByRole('button', { name: 'Accept — Welche Region? (Reisebüro)' }).click();
    await poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
    expect((await focused()).className).toContain('waitfor-control');
    expect(await violations()).toEqual([]);

    await page.keyboard.press('Escape');
    await poll(() => answerOf('form')).toEqual({ id: 'form', ok: false, reason: 'cancelled' });
    await poll(focused).toEqual({ text: 'Second?', className: 'waitfor-prompt' });

    // From the prompt, the next Tab reaches Approve; answering the last question lands on the note.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await poll(() => answerOf('second')).toEqual({ id: 'second', ok: true });
    await poll(focused).toEqual({ text: 'No open requests.', className: 'waitfor-empty' });
    expect(await violations()).toEqual([]);
  }, 60_000);
});
