import { join } from 'node:path';
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts } from './browserExample.js';
import { killHost, openHostedBrowsers, startHostProcess } from './hostedProcess.js';
import type { HostedBrowsers } from './hostedProcess.js';

// A call's life in the hosted mode (the default), as a person finds it in Chromium: a -32042 sign-in
// (legacy-spec on the host), the "finish in the other tab" note, declined and cancelled calls with
// Retry, an answer that lost the race or was refused, the host down, and a restart.
describe('the hosted mode in Chromium: a call from start to end, the host down and restarted', () => {
  let hosted: HostedBrowsers;
  let firstContext: BrowserContext;
  let first: Page;
  let second: Page;

  beforeAll(async () => {
    hosted = await openHostedBrowsers('waitfor-hosted-life-');
    [firstContext] = hosted.contexts;
    [first, second] = hosted.pages;
    for (const page of hosted.pages) await page.goto(hosted.host.url);
  }, 240_000);

  afterAll(async () => {
    await hosted?.close();
  });

  const question = (page: Page, text: string) =>
    page.locator('.waitfor-item').filter({ hasText: text });
  const call = (page: Page, tool: string) => page.locator(`li.call[data-tool="${tool}"]`).first();
  const status = (page: Page, tool: string) => call(page, tool).locator('.status').textContent();
  const run = (page: Page, server: string, tool: string) =>
    page.getByRole('article', { name: server }).getByRole('button', { name: `Run ${tool}` });
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(artifacts, `example-hosted-${name}.png`), fullPage: true });

  it('Sync trips to calendar: the -32042 becomes a consent, the note says to finish in the other tab, the call completes', async () => {
    await expect.poll(() => run(first, 'Travel Desk', 'Sync trips to calendar').count()).toBe(1);
    await run(first, 'Travel Desk', 'Sync trips to calendar').click();
    const consent = question(first, 'Sign in to your calendar so Travel Desk can add your trips.');
    await expect.poll(() => consent.count(), { timeout: 20_000 }).toBe(1);
    const popup = firstContext.waitForEvent('page');
    await consent.getByRole('button', { name: /^Open 127\.0\.0\.1:\d+ / }).click();
    const signIn = await popup;
    await signIn.waitForLoadState();
    // The host holds the consented step: both pages say who waits, and there is nothing to answer.
    for (const page of [first, second]) {
      const waits = page.getByRole('list', { name: 'Waiting for you in the browser' });
      await expect
        .poll(() => waits.textContent(), { timeout: 20_000 })
        .toBe(
          'Travel Desk is waiting for you to finish in the other tab: Sign in to your calendar so Travel Desk can add your trips.',
        );
      expect(await page.locator('.waitfor-empty').textContent()).toBe(
        'Nothing to answer here while you finish in the other tab.',
      );
    }
    await shot(second, 'finish-elsewhere');
    await signIn.getByLabel('Username').fill('ada.lovelace');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    for (const page of [first, second]) {
      await expect
        .poll(() => call(page, 'sync_calendar').locator('.call-text').textContent(), {
          timeout: 30_000,
        })
        .toBe('Synced 3 upcoming trips to your calendar.');
      expect(await status(page, 'sync_calendar')).toBe('done');
      await expect.poll(() => page.locator('.waits').count()).toBe(0);
    }
    await signIn.close();
  });

  it('a declined call reads declined with Retry; Retry runs it again, Cancel call makes it cancelled with Retry', async () => {
    await run(first, 'Travel Desk', 'Book a trip').click();
    const trip = question(first, 'Where and when would you like to travel?');
    await expect.poll(() => trip.count(), { timeout: 20_000 }).toBe(1);
    await trip.getByRole('button', { name: /^Decline/ }).click();
    await expect.poll(() => status(second, 'book_trip'), { timeout: 20_000 }).toBe('declined');
    const retry = call(first, 'book_trip').getByRole('button', { name: 'Retry: Book a trip' });
    await expect.poll(() => retry.count()).toBe(1);
    await retry.click();
    await expect.poll(() => status(first, 'book_trip'), { timeout: 20_000 }).toBe('waiting…');
    expect(await call(first, 'book_trip').locator('.attempt').textContent()).toBe(' · run 2 times');
    await expect.poll(() => trip.count(), { timeout: 20_000 }).toBe(1);
    await second.getByRole('button', { name: 'Cancel call: Book a trip' }).click();
    for (const page of [first, second]) {
      await expect.poll(() => status(page, 'book_trip'), { timeout: 20_000 }).toBe('cancelled');
      await expect.poll(() => question(page, 'Where and when').count()).toBe(0);
      expect(
        await call(page, 'book_trip').getByRole('button', { name: 'Retry: Book a trip' }).count(),
      ).toBe(1);
    }
  });

  it('an answer that lost the race says it was answered elsewhere, and by whom; one the host refuses keeps the value, with its error', async () => {
    const replicas = 'How many replicas should search-api run?';
    await run(first, 'Deploy Console', 'Scale a service').click();
    for (const page of [first, second])
      await expect.poll(() => question(page, replicas).count(), { timeout: 20_000 }).toBe(1);
    // The second page's answer is on its way while the first page answers (held, then let go).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const answers = '**/api/inbox/requests/*/answer';
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await second.route(answers, hold);
    await question(second, replicas).getByRole('spinbutton', { name: 'Replicas' }).fill('4');
    await question(second, replicas)
      .getByRole('button', { name: /^Accept/ })
      .click();
    await question(first, replicas).getByRole('spinbutton', { name: 'Replicas' }).fill('5');
    await question(first, replicas)
      .getByRole('button', { name: /^Accept/ })
      .click();
    await expect
      .poll(() => call(first, 'scale_service').locator('.call-text').textContent(), {
        timeout: 30_000,
      })
      .toBe('Scaled search-api to 5 replicas.');
    release();
    const lost = second.locator('.waitfor-departed').filter({ hasText: replicas });
    // The host's 409 says how it ended and who answered: the store's inbox records its answers
    // under the example's one person (`answeredBy: 'example'`, the scope).
    await expect
      .poll(() => lost.locator('.waitfor-closed').textContent(), { timeout: 20_000 })
      .toBe('Answered elsewhere by example: this request is no longer open.');
    expect(await lost.locator('.waitfor-closed').getAttribute('role')).toBe('status');
    await shot(second, 'answered-elsewhere');
    await lost.getByRole('button', { name: /^Dismiss — / }).click();
    expect(await lost.count()).toBe(0);
    await second.unroute(answers, hold);

    // A refusal the page cannot foresee (here: the answer altered on its way, as a host's own rule
    // would refuse it): the form comes back with what was typed and the host's message on it.
    await run(first, 'Deploy Console', 'Scale a service').click();
    await expect.poll(() => question(second, replicas).count(), { timeout: 20_000 }).toBe(1);
    const refuse = (route: Route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>;
      return route.continue({ postData: JSON.stringify({ ...body, data: { replicas: 999 } }) });
    };
    await second.route(answers, refuse);
    const form = question(second, replicas);
    await form.getByRole('spinbutton', { name: 'Replicas' }).fill('7');
    await form.getByRole('button', { name: /^Accept/ }).click();
    await expect
      .poll(() => form.locator('.waitfor-answer-error').textContent(), { timeout: 20_000 })
      .toBe('Your answer was not accepted: see the marked fields.');
    const field = form.getByRole('spinbutton', { name: 'Replicas' });
    expect(await field.inputValue()).toBe('7');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('.waitfor-error').allTextContents()).toContain('Must be at most 50.');
    await shot(second, 'refused');
    await second.unroute(answers, refuse);
    await form.getByRole('button', { name: /^Accept/ }).click();
    await expect
      .poll(() => call(second, 'scale_service').locator('.call-text').textContent(), {
        timeout: 30_000,
      })
      .toBe('Scaled search-api to 7 replicas.');
  });

  it('while the host is down the page says so, Run waits, nothing polls, and an answer sent is kept with a word', async () => {
    await run(first, 'Travel Desk', 'Book a trip').click();
    const trip = question(first, 'Where and when would you like to travel?');
    await expect.poll(() => trip.count(), { timeout: 20_000 }).toBe(1);
    await trip.getByLabel('Destination').selectOption('kyoto');
    await trip.getByLabel('Departure date').fill('2027-03-14');
    await trip.getByLabel('Email for the itinerary').fill('ada@example.com');
    const port = Number(new URL(hosted.host.url).port);
    const polls: string[] = [];
    first.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/calls' || path === '/api/servers') polls.push(path);
    });
    await killHost(hosted.host.process);
    const alert = first.locator('.page-alert');
    await expect
      .poll(() => alert.textContent(), { timeout: 30_000 })
      .toBe(
        'The example host cannot be reached. This page tries again by itself; until then nothing can be run and answers cannot be sent.',
      );
    expect(await alert.getAttribute('role')).toBe('alert');
    // (Book a trip runs: its Run reads "Running…".)
    const runLink = first.getByRole('button', {
      name: 'Run Link a loyalty account (the host cannot be reached)',
    });
    expect(await runLink.getAttribute('aria-disabled')).toBe('true');
    expect(
      await first
        .getByRole('button', { name: 'Cancel call: Book a trip' })
        .getAttribute('aria-disabled'),
    ).toBe('true');
    expect(
      await first
        .getByRole('article', { name: 'Travel Desk' })
        .locator('.host-unknown')
        .textContent(),
    ).toBe('Not known while the host cannot be reached.');
    // An answer sent now cannot arrive: it comes back with what was typed, and says so.
    await trip.getByRole('button', { name: /^Accept/ }).click();
    await expect
      .poll(() => trip.locator('.waitfor-answer-error').textContent(), { timeout: 20_000 })
      .toBe('Your answer could not be sent. It is kept here: send it again.');
    expect(await trip.getByLabel('Email for the itinerary').inputValue()).toBe('ada@example.com');
    await shot(first, 'host-down');
    // One event stream with backoff, no poll of the lists.
    expect(polls).toEqual([]);

    // (Restarted on the same port and data folder.)
    hosted.host = await startHostProcess(hosted.dataDir, hosted.dist, port);
    await expect.poll(() => alert.count(), { timeout: 60_000 }).toBe(0);
    expect(
      await first
        .getByRole('button', { name: 'Run Link a loyalty account' })
        .getAttribute('aria-disabled'),
    ).toBeNull();
  });

  it('after the restart, the question of the call that ended with it is gone; the call says why, with Retry', async () => {
    for (const page of [first, second]) {
      await expect
        .poll(() => call(page, 'book_trip').locator('.call-text').textContent(), {
          timeout: 30_000,
        })
        .toBe('The host restarted: this call ended with it, and its questions were withdrawn.');
      expect(await status(page, 'book_trip')).toBe('failed');
      await expect
        .poll(() => question(page, 'Where and when would you like to travel?').count(), {
          timeout: 20_000,
        })
        .toBe(0);
    }
    await shot(second, 'restarted-ended');
    await second.reload();
    await expect.poll(() => status(second, 'book_trip'), { timeout: 20_000 }).toBe('failed');
    expect(await question(second, 'Where and when would you like to travel?').count()).toBe(0);
    // In German the host's words are the page's: the call's note, and this app's own name.
    await second.getByLabel('Language').selectOption('de');
    expect(await call(second, 'book_trip').locator('.call-text').textContent()).toBe(
      'Der Host wurde neu gestartet: Dieser Aufruf endete damit, seine Fragen wurden zurückgezogen.',
    );
    const app = second.getByRole('article', { name: 'Diese App' });
    await app.getByRole('button', { name: 'Starten: Plan a trip budget' }).click();
    const plan = question(second, 'Plan a trip budget: when do you travel');
    await expect.poll(() => plan.count(), { timeout: 20_000 }).toBe(1);
    expect(await plan.locator('[data-waitfor-server]').textContent()).toBe('Diese App');
    expect(await second.locator('.call-group-title').first().textContent()).toBe(
      'Plan a trip budget · Diese App',
    );
    await second.getByRole('button', { name: 'Aufruf abbrechen: Plan a trip budget' }).click();
    await expect
      .poll(() => status(second, 'plan_trip_budget'), { timeout: 20_000 })
      .toBe('abgebrochen');
    expect(hosted.pageErrors).toEqual([]);
  });
});
