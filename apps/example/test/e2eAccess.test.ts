import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { artifacts, openBrowserExample, violations } from './browserExample.js';
import type { BrowserExample } from './browserExample.js';

// The page for every person, in real Chromium: axe-core finds no violation on any view the page
// can show (light and dark), a keyboard alone answers, and the page works in German.

describe('the example page for every person', () => {
  let browser: BrowserExample;
  const page = () => browser.page;
  const question = (text: string) => page().locator('.waitfor-item').filter({ hasText: text });
  const result = (tool: string) => page().locator(`li.call[data-tool="${tool}"]`);
  const panel = (name: string) => page().getByRole('article', { name });
  const signInPort = () => new URL(browser.example.servers[0]?.url ?? '').port;
  const setTheme = (theme: 'light' | 'dark') =>
    page()
      .getByLabel(/^(Theme|Darstellung)$/)
      .selectOption(theme);
  const setLanguage = (language: 'en' | 'de') =>
    page()
      .getByLabel(/^(Language|Sprache)$/)
      .selectOption(language);
  /** No violation in the light and the dark theme; a screenshot of each at this width. */
  const checkBothThemes = async (name: string) => {
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      await expect
        .poll(() => page().evaluate(() => document.documentElement.dataset.theme))
        .toBe(theme);
      expect(await violations(page())).toEqual([]);
      await page().screenshot({
        path: join(artifacts, `example-${name}-${theme}.png`),
        fullPage: true,
      });
    }
  };
  const tools = async () =>
    (await panel('Travel Desk').locator('.tools button').count()) +
    (await panel('Deploy Console').locator('.tools button').count());

  beforeAll(async () => {
    browser = await openBrowserExample();
    await page().goto(browser.example.url);
    await vi.waitFor(async () => expect(await tools()).toBe(5), { timeout: 20_000, interval: 100 });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('has no axe violation on the empty list, light and dark', async () => {
    expect(await page().locator('.waitfor-empty').count()).toBe(1);
    await checkBothThemes('desktop-empty');
  });

  it('has no axe violation with a form, a consent, a re-ask with errors and an approval', async () => {
    await setTheme('light');
    await panel('Travel Desk').getByRole('button', { name: 'Run Book a trip' }).click();
    await panel('Travel Desk').getByRole('button', { name: 'Run Link a loyalty account' }).click();
    await panel('This app').getByRole('button', { name: 'Run Plan a trip budget' }).click();
    const trip = question('Where and when would you like to travel?');
    const consent = question('Sign in to SkyMiles so Travel Desk can link your loyalty account.');
    const plan = question('Plan a trip budget: when do you travel');
    await expect.poll(() => page().locator('.waitfor-item').count(), { timeout: 20_000 }).toBe(3);
    // The form with errors shown in place, and the app's question asked again with zod's message.
    await trip.getByLabel('Email for the itinerary').fill('not-an-email');
    await trip.getByRole('button', { name: /^Accept/ }).click();
    await expect.poll(() => trip.locator('.waitfor-error').count()).toBeGreaterThan(0);
    await plan.getByLabel('Departure date').fill('2027-03-14');
    await plan.getByLabel('Return date').fill('2027-03-10');
    await plan.getByRole('button', { name: /^Accept/ }).click();
    await expect
      .poll(() => plan.locator('[data-waitfor-attempt]').textContent(), { timeout: 20_000 })
      .toBe('Asked again: please check your answer.');
    expect(await consent.locator('.waitfor-consent').count()).toBe(1);
    await checkBothThemes('desktop-questions');
    await page().setViewportSize({ width: 390, height: 844 });
    await checkBothThemes('phone-questions');
    await page().setViewportSize({ width: 1360, height: 900 });

    // The approval (the tool runner's second round).
    await plan.getByLabel('Return date').fill('2027-03-18');
    await plan.getByRole('button', { name: /^Accept/ }).click();
    const save = question('Save a budget of EUR');
    await expect.poll(() => save.count(), { timeout: 20_000 }).toBe(1);
    expect(await save.locator('.waitfor-approve').count()).toBe(1);
    await checkBothThemes('desktop-approval');
    await page().setViewportSize({ width: 390, height: 844 });
    await checkBothThemes('phone-approval');
    await page().setViewportSize({ width: 1360, height: 900 });
    await setTheme('light');
    for (const call of ['book_trip', 'link_account', 'plan_trip_budget'])
      await result(call)
        .getByRole('button', { name: /^Cancel call/ })
        .click();
    await expect.poll(() => page().locator('.waitfor-item').count(), { timeout: 10_000 }).toBe(0);
  });

  /** Presses Tab until the focused element's accessible name matches (the page is small). */
  const tabTo = async (name: RegExp) => {
    for (let step = 0; step < 120; step++) {
      await page().keyboard.press('Tab');
      const focused = await page().evaluate(() => {
        const element = document.activeElement;
        return element?.getAttribute('aria-label') ?? element?.textContent ?? '';
      });
      if (name.test(focused)) return;
    }
    throw new Error(`Tab never reached ${String(name)}`);
  };
  const focusedText = () => page().evaluate(() => document.activeElement?.textContent ?? '');

  it('is answered with the keyboard alone: a form, a URL consent, a decline, Escape', async () => {
    await page().evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // A form: Run with Enter, the question takes focus, Tab to the field, Enter sends.
    await tabTo(/^Run Scale a service$/);
    await page().keyboard.press('Enter');
    await expect
      .poll(focusedText, { timeout: 20_000 })
      .toBe('How many replicas should search-api run?');
    await page().keyboard.press('Tab');
    await page().keyboard.press('Control+A');
    await page().keyboard.type('5');
    await tabTo(/^Accept — How many replicas/);
    await page().keyboard.press('Enter');
    await expect
      .poll(() => result('scale_service').first().locator('.call-text').textContent(), {
        timeout: 20_000,
      })
      .toBe('Scaled search-api to 5 replicas.');

    // A URL consent: Space on "Open …" opens the sign-in (after consent only).
    await tabTo(/^Run Link a loyalty account$/);
    await page().keyboard.press('Enter');
    await expect
      .poll(focusedText, { timeout: 20_000 })
      .toBe('Sign in to SkyMiles so Travel Desk can link your loyalty account.');
    const popup = browser.context.waitForEvent('page');
    await tabTo(new RegExp(`^Open 127\\.0\\.0\\.1:${signInPort()}`));
    await page().keyboard.press('Space');
    const signIn = await popup;
    await signIn.waitForLoadState();
    await signIn.getByLabel('Username').focus();
    await signIn.keyboard.type('ada.lovelace');
    await signIn.keyboard.press('Enter');
    await expect
      .poll(() => result('link_account').first().locator('.call-text').textContent(), {
        timeout: 20_000,
      })
      .toBe('Linked SkyMiles account ada.lovelace to your Travel Desk profile.');
    await signIn.close();

    // A decline: Tab to Decline, Space.
    await page().bringToFront();
    await tabTo(/^Run Book a trip$/);
    await page().keyboard.press('Enter');
    await expect
      .poll(focusedText, { timeout: 20_000 })
      .toBe('Where and when would you like to travel?');
    await tabTo(/^Decline — Where and when/);
    await page().keyboard.press('Space');
    await expect
      .poll(() => result('book_trip').first().locator('.status').textContent(), {
        timeout: 20_000,
      })
      .toBe('declined');
    // Focus did not fall to <body>: it waits on the empty list.
    await expect
      .poll(() => page().evaluate(() => document.activeElement?.className ?? ''))
      .toBe('waitfor-empty');

    // Escape cancels the question that holds focus.
    await tabTo(/^Run Scale a service$/);
    await page().keyboard.press('Enter');
    await expect
      .poll(focusedText, { timeout: 20_000 })
      .toBe('How many replicas should search-api run?');
    await page().keyboard.press('Escape');
    await expect.poll(() => page().locator('.waitfor-item').count(), { timeout: 10_000 }).toBe(0);
    await expect
      .poll(() => result('scale_service').first().locator('.status').textContent(), {
        timeout: 20_000,
      })
      .toBe('cancelled');
    expect(browser.pageErrors).toEqual([]);
  });

  it('works in German, every view without an axe violation', async () => {
    await setLanguage('de');
    await expect.poll(() => page().evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page().getByRole('heading', { level: 2, name: 'Fragen an Sie' }).count()).toBe(1);
    await panel('Travel Desk').getByRole('button', { name: 'Starten: Book a trip' }).click();
    const trip = question('Where and when would you like to travel?');
    await expect.poll(() => trip.count(), { timeout: 20_000 }).toBe(1);
    expect(await trip.locator('.waitfor-server').textContent()).toBe('Travel Desk fragt:');
    expect(await page().locator('.call-group-title').textContent()).toBe(
      'Book a trip · Travel Desk',
    );
    // Sent empty: core's "Required." in German, under each required field.
    await trip.getByRole('button', { name: /^Senden — / }).click();
    await expect
      .poll(() => trip.locator('.waitfor-error').allTextContents())
      .toEqual(['Pflichtfeld.', 'Pflichtfeld.', 'Pflichtfeld.']);
    expect(await result('book_trip').first().locator('.status').textContent()).toBe('wartet…');
    await checkBothThemes('desktop-german');
    await page().setViewportSize({ width: 390, height: 844 });
    await checkBothThemes('phone-german');
    await page().setViewportSize({ width: 1360, height: 900 });
    await trip.getByRole('button', { name: /^Ablehnen — / }).click();
    await expect
      .poll(() => result('book_trip').first().locator('.status').textContent(), {
        timeout: 20_000,
      })
      .toBe('abgelehnt');
    expect(await page().locator('.waitfor-empty').textContent()).toBe(
      'Keine offenen Fragen. Starten Sie ein Werkzeug, um eine zu bekommen.',
    );
    expect(browser.pageErrors).toEqual([]);
  });
});
