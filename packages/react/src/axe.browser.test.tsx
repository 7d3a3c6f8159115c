// @vitest-environment node
import { createRequire } from 'node:module';
import { version } from 'react';
import { renderToString } from 'react-dom/server';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInbox } from '@waitfor/core';
import { RequestList, WaitforProvider } from '@waitfor/react';
import { EveryView, everyRequest, everyViewInbox } from './__fixtures__/everyView.js';

// Every view rendered to HTML and checked by axe-core in Debian's Chromium: the same markup the
// components produce in a page, in a real browser's accessibility tree.

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeResult {
  violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown[] }> }>;
}

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>waitfor views</title></head><body><main><h1>Questions</h1>${body}</main></body></html>`;
}

// One browser run is enough: the markup is the same under React 18 (the react-18 project skips it).
describe.skipIf(!version.startsWith('19.'))('every view in Chromium, checked by axe-core', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  async function violations(html: string) {
    const tab = await browser.newPage();
    try {
      await tab.setContent(page(html));
      await tab.addScriptTag({ path: axePath });
      const result = await tab.evaluate(() =>
        (globalThis as unknown as { axe: { run(): Promise<AxeResult> } }).axe.run(),
      );
      return result.violations.map(({ id, impact, nodes }) => ({
        id,
        impact,
        targets: nodes.map((node) => node.target.join(' ')),
      }));
    } finally {
      await tab.close();
    }
  }

  it('form, re-ask with errors, consent, approval, sampling, progress, connection, empty list and closed: no violations', async () => {
    const html = renderToString(<EveryView inbox={everyViewInbox()} />);
    // Every view is there, so a view that stopped rendering cannot pass by absence.
    for (const part of [
      'waitfor-form',
      'waitfor-attempt',
      'waitfor-error',
      'waitfor-consent',
      'waitfor-warnings',
      'waitfor-approve',
      'waitfor-sampling',
      'waitfor-progress',
      'waitfor-connection',
      'waitfor-empty',
      'waitfor-closed',
      'waitfor-countdown',
    ]) {
      expect(html).toContain(part);
    }
    expect(await violations(html)).toEqual([]);
  }, 60_000);

  it('two servers asking the same question: every landmark and name stays unique', async () => {
    const inbox = createInbox();
    for (const server of ['Reisebüro', 'Deploy Console']) {
      void inbox.waitFor({
        ...everyRequest.form,
        id: server,
        data: { ...everyRequest.form.data, origin: { server } },
      });
    }
    const html = renderToString(
      <WaitforProvider inbox={inbox}>
        <RequestList />
      </WaitforProvider>,
    );
    expect(await violations(html)).toEqual([]);
  }, 60_000);
});
