import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, violations } from './browserExample.js';
import { killHost as kill, openHostedBrowsers, startHostProcess } from './hostedProcess.js';
import type { HostedBrowsers } from './hostedProcess.js';

describe('the hosted mode in Chromium: two pages, a reload, the host killed and restarted', () => {
  let hosted: HostedBrowsers;
  let first: Page;
  let second: Page;

  beforeAll(async () => {
    hosted = await openHostedBrowsers('waitfor-hosted-');
    [first, second] = hosted.pages;
  }, 240_000);

  afterAll(async () => {
    await hosted?.close();
  });

  const question = (page: Page, text: string) =>
    page.locator('.waitfor-item').filter({ hasText: text });
  const result = (page: Page, tool: string) => page.locator(`li.call[data-tool="${tool}"]`).first();
  // The first connection line is the inbox's (the page's stream to the host).
  const inboxState = (page: Page) =>
    page.locator('.waitfor-connection').first().getAttribute('data-waitfor-state');
  const replicas = 'How many replicas should search-api run?';

  it('shows each server connected and the inbox connected, in both pages', async () => {
    for (const page of [first, second]) {
      await page.goto(hosted.host.url);
      const deployConsole = page.getByRole('article', { name: 'Deploy Console' });
      await expect
        .poll(() => deployConsole.getByRole('button', { name: /^Run / }).count(), {
          timeout: 30_000,
        })
        .toBe(2);
      await expect
        .poll(() => page.locator('.waitfor-connection').allTextContents(), { timeout: 20_000 })
        .toEqual([
          expect.stringContaining('Connected'),
          expect.stringContaining('Connected'),
          expect.stringContaining('Connected'),
        ]);
    }
    await first.screenshot({
      path: join(artifacts, 'example-hosted-connected.png'),
      fullPage: true,
    });
  });

  it('answer in one page: the question leaves the other and the tool completes', async () => {
    await first
      .getByRole('article', { name: 'This app' })
      .getByRole('button', { name: 'Run Plan a trip budget' })
      .click();
    // Asked on the host: both pages list it.
    const plan = 'Plan a trip budget: when do you travel';
    for (const page of [first, second])
      await expect.poll(() => question(page, plan).count(), { timeout: 20_000 }).toBe(1);
    const form = question(first, plan);
    await form.getByLabel('Departure date').fill('2027-03-14');
    await form.getByLabel('Return date').fill('2027-03-18');
    await form.getByRole('button', { name: 'Accept' }).click();
    const approval = question(second, 'Save a budget of');
    await expect.poll(() => approval.count(), { timeout: 20_000 }).toBe(1);
    await second.screenshot({
      path: join(artifacts, 'example-hosted-second-page.png'),
      fullPage: true,
    });
    await approval.getByRole('button', { name: 'Approve' }).click();
    // Answered in the second page: it leaves the first, and the tool completes (both pages show it).
    await expect
      .poll(() => question(first, 'Save a budget of').count(), { timeout: 20_000 })
      .toBe(0);
    for (const page of [first, second])
      await expect
        .poll(() => result(page, 'plan_trip_budget').locator('.status').textContent(), {
          timeout: 20_000,
        })
        .toBe('done');
  });

  it("shows a call's progress in both pages; Cancel call withdraws its question from both", async () => {
    const travelDesk = first.getByRole('article', { name: 'Travel Desk' });
    await travelDesk.getByRole('button', { name: 'Run Book a trip' }).click();
    const trip = 'Where and when would you like to travel?';
    for (const page of [first, second]) {
      await expect.poll(() => question(page, trip).count(), { timeout: 20_000 }).toBe(1);
      const bar = result(page, 'book_trip').getByRole('progressbar', {
        name: 'Progress of Book a trip',
      });
      await expect.poll(() => bar.getAttribute('value'), { timeout: 20_000 }).toBe('1');
      expect(await bar.getAttribute('max')).toBe('2');
    }
    await second.screenshot({
      path: join(artifacts, 'example-hosted-progress.png'),
      fullPage: true,
    });
    // The hosted views (the inbox's connection line, a call's progress) pass axe-core too.
    expect(await violations(second)).toEqual([]);
    await second.getByRole('button', { name: 'Cancel call: Book a trip' }).click();
    for (const page of [first, second]) {
      await expect.poll(() => question(page, trip).count(), { timeout: 20_000 }).toBe(0);
      await expect
        .poll(() => result(page, 'book_trip').locator('.status').textContent(), { timeout: 20_000 })
        .toBe('cancelled');
    }
  });

  it('a reload keeps an open question; the host killed (-9) and restarted, the modern-era call completes after the answer', async () => {
    const deployConsole = first.getByRole('article', { name: 'Deploy Console' });
    await deployConsole.getByRole('button', { name: 'Run Scale a service' }).click();
    await expect.poll(() => question(first, replicas).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => question(second, replicas).count(), { timeout: 20_000 }).toBe(1);

    await first.reload();
    await expect.poll(() => question(first, replicas).count(), { timeout: 20_000 }).toBe(1);
    await first.screenshot({
      path: join(artifacts, 'example-hosted-reloaded.png'),
      fullPage: true,
    });

    // The host dies mid-question and starts again on the same port and data folder.
    const port = Number(new URL(hosted.host.url).port);
    await kill(hosted.host.process);
    await expect.poll(() => inboxState(first), { timeout: 20_000 }).not.toBe('connected');
    hosted.host = await startHostProcess(hosted.dataDir, hosted.dist, port);
    // The pages' remote inboxes reconnect by themselves; the question is still open.
    for (const page of [first, second]) {
      await expect.poll(() => inboxState(page), { timeout: 60_000 }).toBe('connected');
      await expect.poll(() => question(page, replicas).count(), { timeout: 20_000 }).toBe(1);
    }
    await second.screenshot({
      path: join(artifacts, 'example-hosted-restarted.png'),
      fullPage: true,
    });
    const scale = question(first, replicas);
    await scale.getByRole('spinbutton', { name: 'Replicas' }).fill('4');
    await scale.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => question(second, replicas).count(), { timeout: 20_000 }).toBe(0);
    for (const page of [first, second])
      await expect
        .poll(() => result(page, 'scale_service').locator('.call-text').textContent(), {
          timeout: 30_000,
        })
        .toBe('Scaled search-api to 4 replicas.');
    await first.screenshot({ path: join(artifacts, 'example-hosted-resumed.png'), fullPage: true });
    expect(hosted.pageErrors).toEqual([]);
  });
});
