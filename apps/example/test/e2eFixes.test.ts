import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openBrowserExample, violations } from './browserExample.js';
import type { BrowserExample } from './browserExample.js';

// What a person found by trying the page, each checked in real Chromium against the real servers.

describe('the example page, as a person finds it', () => {
  let browser: BrowserExample;
  const page = () => browser.page;
  const question = (text: string) => page().locator('.waitfor-item').filter({ hasText: text });
  const result = (tool: string) => page().locator(`li.call[data-tool="${tool}"]`);
  const panel = (name: string) => page().getByRole('article', { name });
  const signInPort = () => new URL(browser.example.servers[0]?.url ?? '').port;

  beforeAll(async () => {
    browser = await openBrowserExample();
    await page().goto(browser.example.url);
    await vi.waitFor(
      async () => {
        expect(await panel('Travel Desk').getByRole('button', { name: /^Run / }).count()).toBe(3);
        expect(await panel('Deploy Console').getByRole('button', { name: /^Run / }).count()).toBe(
          2,
        );
      },
      { timeout: 20_000, interval: 100 },
    );
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('names the tool that asked and groups the questions by call', async () => {
    await panel('Deploy Console').getByRole('button', { name: 'Run Deploy a service' }).click();
    await panel('Travel Desk').getByRole('button', { name: 'Run Book a trip' }).click();
    const groups = page().locator('.call-group');
    await expect.poll(() => groups.count(), { timeout: 20_000 }).toBe(2);
    const deploy = groups.filter({ hasText: 'Where should billing-api run?' });
    await expect.poll(() => deploy.locator('.waitfor-item').count()).toBe(2);
    expect(await deploy.locator('.call-group-title').textContent()).toBe(
      'Deploy a service · Deploy Console',
    );
    const trip = groups.filter({ hasText: 'Where and when would you like to travel?' });
    expect(await trip.locator('.call-group-title').textContent()).toBe('Book a trip · Travel Desk');
  });

  it('shows a running call as busy and does not start it twice', async () => {
    const run = panel('Deploy Console')
      .locator('.tools li')
      .filter({ hasText: 'Deploy a service' })
      .getByRole('button');
    expect(await run.getAttribute('aria-disabled')).toBe('true');
    expect(await run.textContent()).toBe('Running…');
    expect(await run.getAttribute('aria-label')).toBe('Running… Deploy a service');
    await run.click({ force: true });
    await run.press('Enter');
    expect(await result('deploy_service').count()).toBe(1);
    expect(await page().locator('.call-group').count()).toBe(2);
  });

  it('gives an invalid input the invalid style, not only a select', async () => {
    const trip = question('Where and when would you like to travel?');
    const email = trip.getByLabel('Email for the itinerary');
    await email.fill('not-an-email');
    await trip.getByRole('button', { name: /^Accept/ }).click();
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    const border = (name: string) =>
      trip.getByLabel(name).evaluate((element) => getComputedStyle(element).borderTopColor);
    // Nights is valid (its default), the email is not: they must not look the same.
    expect(await border('Email for the itinerary')).not.toBe(await border('Nights'));
  });

  it('shows the departure date without a hint the native picker contradicts', async () => {
    const departure = question('Where and when would you like to travel?').locator(
      '[data-waitfor-field="departure"]',
    );
    expect(await departure.locator('input').getAttribute('type')).toBe('date');
    expect(await departure.textContent()).not.toContain('YYYY-MM-DD');
  });

  it('words a declined form and a declined sign-in the same way, without SDK terms', async () => {
    for (const call of ['deploy_service', 'book_trip'])
      await result(call)
        .getByRole('button', { name: /^Cancel call/ })
        .click();
    await expect.poll(() => page().locator('.waitfor-item').count(), { timeout: 10_000 }).toBe(0);

    await panel('Deploy Console').getByRole('button', { name: 'Run Scale a service' }).click();
    const scale = question('How many replicas should search-api run?');
    await expect.poll(() => scale.count(), { timeout: 20_000 }).toBe(1);
    await scale.getByRole('button', { name: /^Decline/ }).click();
    await expect
      .poll(() => result('scale_service').locator('.status').textContent(), { timeout: 20_000 })
      .toBe('declined');

    await panel('Travel Desk').getByRole('button', { name: 'Run Sync trips to calendar' }).click();
    const consent = question('Sign in to your calendar so Travel Desk can add your trips.');
    await expect.poll(() => consent.count(), { timeout: 20_000 }).toBe(1);
    await consent.getByRole('button', { name: /^Decline/ }).click();
    const sync = result('sync_calendar');
    await expect
      .poll(() => sync.locator('.status').textContent(), { timeout: 20_000 })
      .toBe('declined');
    // Both read the same way: declined, with a way to be asked again, and no protocol terms.
    for (const call of [result('scale_service'), sync]) {
      expect(await call.getByRole('button', { name: /^Retry/ }).count()).toBe(1);
      expect(await call.locator('.call-text').textContent()).not.toMatch(
        /elicitation|MCP|-3\d{4}|Error/i,
      );
    }
  });

  it('has a favicon', async () => {
    const icon = page().locator('link[rel="icon"]');
    expect(await icon.count()).toBe(1);
    const href = (await icon.getAttribute('href')) ?? '';
    const loaded = await page().evaluate(async (url) => (await fetch(url)).ok, href);
    expect(loaded).toBe(true);
  });

  it('does not say "No open questions" under a "finish in the other tab" note', async () => {
    await panel('Travel Desk').getByRole('button', { name: 'Run Link a loyalty account' }).click();
    const consent = question('Sign in to SkyMiles so Travel Desk can link your loyalty account.');
    await expect.poll(() => consent.count(), { timeout: 20_000 }).toBe(1);
    const popup = browser.context.waitForEvent('page');
    await consent.getByRole('button', { name: `Open 127.0.0.1:${signInPort()}` }).click();
    const signIn = await popup;
    await signIn.waitForLoadState();
    const waits = page().getByRole('list', { name: 'Waiting for you in the browser' });
    await expect.poll(() => waits.count()).toBe(1);
    expect(await page().getByText('No open questions').count()).toBe(0);
    await result('link_account')
      .getByRole('button', { name: /^Cancel call/ })
      .click();
    await expect.poll(() => waits.count(), { timeout: 10_000 }).toBe(0);
    await signIn.close();
    await expect.poll(() => page().getByText('No open questions').count()).toBe(1);
  });

  it('on a phone-width screen brings the question the person asked for into view', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await page().evaluate(() => window.scrollTo(0, 0));
    await panel('Deploy Console').getByRole('button', { name: 'Run Scale a service' }).click();
    const prompt = question('How many replicas should search-api run?').locator('.waitfor-prompt');
    await expect.poll(() => prompt.count(), { timeout: 20_000 }).toBe(1);
    await expect
      .poll(() =>
        prompt.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    expect(await prompt.evaluate((element) => element === document.activeElement)).toBe(true);
    await result('scale_service')
      .first()
      .getByRole('button', { name: /^Cancel call/ })
      .click();
    await page().setViewportSize({ width: 1360, height: 900 });
  });

  it('shows a server that went away as disconnected, and says so for its call', async () => {
    await panel('Travel Desk').getByRole('button', { name: 'Run Book a trip' }).click();
    const trip = question('Where and when would you like to travel?');
    await expect.poll(() => trip.count(), { timeout: 20_000 }).toBe(1);
    await browser.example.stopServer('Travel Desk');
    const state = panel('Travel Desk').locator('.waitfor-connection');
    await expect
      .poll(() => state.getAttribute('data-waitfor-state'), { timeout: 30_000 })
      .toBe('closed');
    expect(await state.textContent()).toBe('Disconnected from Travel Desk');
    const booking = result('book_trip').first();
    await expect
      .poll(() => booking.locator('.call-text').textContent(), { timeout: 20_000 })
      .toContain('Travel Desk disconnected');
    expect(await trip.count()).toBe(0);
    // The disconnected state is a view too: axe finds nothing on it.
    expect(await violations(page())).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });
});
