import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, openBrowserExample } from './browserExample.js';
import type { BrowserExample } from './browserExample.js';

// The whole example in a real headless Chromium: the page's MCP clients run in the browser and
// talk to the real servers over Streamable HTTP (cross-origin, through CORS).

describe('the example page in Chromium', () => {
  let browser: BrowserExample;
  let example: BrowserExample['example'];
  let context: BrowserExample['context'];
  let page: BrowserExample['page'];
  let pageErrors: string[];

  beforeAll(async () => {
    browser = await openBrowserExample();
    ({ example, context, page, pageErrors } = browser);
  });

  afterAll(async () => {
    await browser?.close();
  });

  // Every open question, whichever call's group it is in.
  const requests = () => page.locator('.waitfor-item');
  const question = (text: string) => requests().filter({ hasText: text });
  const result = (tool: string) => page.locator(`li.call[data-tool="${tool}"]`);
  // The Travel Desk serves its own sign-in page, so consent names its port.
  const signInPort = () => new URL(example.servers[0]?.url ?? '').port;

  it('answers questions of both eras in one list and shows every result', async () => {
    await page.goto(example.url);
    const travelDesk = page.getByRole('article', { name: 'Travel Desk' });
    const deployConsole = page.getByRole('article', { name: 'Deploy Console' });
    await expect
      .poll(() => travelDesk.getByRole('button', { name: /^Run / }).count(), { timeout: 20_000 })
      .toBe(3);
    await expect.poll(() => deployConsole.getByRole('button', { name: /^Run / }).count()).toBe(2);
    expect(await travelDesk.locator('.era').textContent()).toContain('legacy');
    expect(await deployConsole.locator('.era').textContent()).toContain('modern');

    // One tool of each era at once: a pushed legacy form and two modern inputRequests share the list.
    await travelDesk.getByRole('button', { name: 'Run Book a trip' }).click();
    await deployConsole.getByRole('button', { name: 'Run Deploy a service' }).click();
    await expect.poll(() => requests().count(), { timeout: 20_000 }).toBe(3);
    expect(
      await question('Where and when would you like to travel?')
        .locator('[data-waitfor-server]')
        .textContent(),
    ).toBe('Travel Desk');
    expect(
      await question('Where should billing-api run?')
        .locator('[data-waitfor-server]')
        .textContent(),
    ).toBe('Deploy Console');

    await page.screenshot({ path: join(artifacts, 'example-e2e.png'), fullPage: true });

    // The legacy form: an invalid accept is refused in place, then a valid one goes through.
    const trip = question('Where and when would you like to travel?');
    await trip.getByLabel('Destination').selectOption('kyoto');
    await trip.getByLabel('Departure date').fill('2027-03-14');
    await trip.getByLabel('Email for the itinerary').fill('not-an-email');
    await trip.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => trip.getByRole('alert').count()).toBeGreaterThan(0);
    await trip.getByLabel('Email for the itinerary').fill('ada@example.com');
    await trip.getByLabel('Nights').fill('6');
    await trip.getByLabel('Lounge access').check();
    await trip.getByRole('button', { name: 'Accept' }).click();
    await expect
      .poll(() => result('book_trip').locator('.call-text').textContent(), { timeout: 20_000 })
      .toMatch(
        /^Booked 6 nights in Kyoto, Japan from 2027-03-14, economy cabin with lounge access\. Itinerary sent to ada@example\.com\. Confirmation TD-[0-9A-F]{6}\.$/,
      );

    // The modern round: two questions, then a confirmation in a second round (signed requestState).
    const target = question('Where should billing-api run?');
    await target.getByLabel('Environment').selectOption('production');
    await target.getByLabel('Region').selectOption('eu-west-1');
    await target.getByLabel('Replicas').fill('3');
    await target.getByRole('button', { name: 'Accept' }).click();
    const rollout = question('How should billing-api roll out?');
    await rollout.getByLabel('Strategy').selectOption('canary');
    await rollout.getByLabel('#on-call').check();
    await rollout.getByRole('button', { name: 'Accept' }).click();
    const confirm = question(
      'Deploy billing-api 1.4.2 to production (eu-west-1, 3 replicas, canary)?',
    );
    await expect.poll(() => confirm.count(), { timeout: 20_000 }).toBe(1);
    await confirm.getByLabel('Start the deployment').check();
    await confirm.getByRole('button', { name: 'Accept' }).click();
    await expect
      .poll(() => result('deploy_service').locator('.call-text').textContent(), { timeout: 20_000 })
      .toMatch(
        /^Deployed billing-api 1\.4\.2 to production \(eu-west-1, 3 replicas, canary\) as release r-[0-9a-f]{6}\. Notified #deploys, #on-call\.$/,
      );

    // URL mode: consent shows the full URL and host; nothing opens before the click.
    await travelDesk.getByRole('button', { name: 'Run Link a loyalty account' }).click();
    const consent = question('Sign in to SkyMiles so Travel Desk can link your loyalty account.');
    await expect.poll(() => consent.count(), { timeout: 20_000 }).toBe(1);
    const signInOrigin = new URL(example.servers[0]?.url ?? '').origin;
    expect(await consent.locator('[data-waitfor-host]').textContent()).toBe('127.0.0.1');
    // Both servers share the host 127.0.0.1: the port right after it tells them apart.
    expect(await consent.locator('[data-waitfor-port]').textContent()).toBe(`:${signInPort()}`);
    expect(await consent.locator('[data-waitfor-url]').textContent()).toMatch(
      new RegExp(`^${signInOrigin.replaceAll('.', '\\.')}/signin/[0-9a-f-]{36}$`),
    );
    expect(context.pages()).toHaveLength(1);
    const popup = context.waitForEvent('page');
    await consent.getByRole('button', { name: `Open 127.0.0.1:${signInPort()}` }).click();
    const signIn = await popup;
    await signIn.waitForLoadState();
    // Consent given, sign-in not finished: the page says who is waiting (legacy-spec's registry).
    const waits = page.getByRole('list', { name: 'Waiting for you in the browser' });
    await expect.poll(() => waits.textContent()).toContain('Travel Desk is waiting for you');
    await signIn.getByLabel('Username').fill('ada.lovelace');
    await signIn.getByLabel('Password').fill('correct horse');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => signIn.locator('h1').textContent()).toBe('Signed in as ada.lovelace');
    await expect
      .poll(() => result('link_account').locator('.call-text').textContent(), { timeout: 20_000 })
      .toBe('Linked SkyMiles account ada.lovelace to your Travel Desk profile.');
    await signIn.close();
    // The completion notification closed the "waiting" note.
    await expect.poll(() => waits.count()).toBe(0);
    expect(await requests().count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('turns a -32042 into a consent, then retries the call once the sign-in completes', async () => {
    const travelDesk = page.getByRole('article', { name: 'Travel Desk' });
    await travelDesk.getByRole('button', { name: 'Run Sync trips to calendar' }).click();
    const consent = question('Sign in to your calendar so Travel Desk can add your trips.');
    await expect.poll(() => consent.count(), { timeout: 20_000 }).toBe(1);
    expect(await result('sync_calendar').locator('.status').textContent()).toBe('waiting…');
    const popup = context.waitForEvent('page');
    await consent.getByRole('button', { name: `Open 127.0.0.1:${signInPort()}` }).click();
    const signIn = await popup;
    await signIn.waitForLoadState();
    expect(await signIn.locator('h1').textContent()).toBe('Sign in to Calendar');
    await signIn.getByLabel('Username').fill('ada.lovelace');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => result('sync_calendar').locator('.call-text').textContent(), { timeout: 30_000 })
      .toBe('Synced 3 upcoming trips to your calendar.');
    await signIn.close();
  });

  it('reports a declined question as the server words it', async () => {
    const deployConsole = page.getByRole('article', { name: 'Deploy Console' });
    await deployConsole.getByRole('button', { name: 'Run Scale a service' }).click();
    const scale = question('How many replicas should search-api run?');
    await expect.poll(() => scale.count(), { timeout: 20_000 }).toBe(1);
    await scale.getByRole('button', { name: 'Decline' }).click();
    await expect
      .poll(() => result('scale_service').locator('.call-text').textContent(), { timeout: 20_000 })
      .toBe('search-api was left as it is.');
    await page.screenshot({ path: join(artifacts, 'example-e2e-done.png'), fullPage: true });
    expect(await requests().count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('cancels a running call (its question leaves the list) and retries it', async () => {
    // Modern era: the question belongs to the bridge's input_required loop; Cancel aborts the loop.
    const deployConsole = page.getByRole('article', { name: 'Deploy Console' });
    await deployConsole.getByRole('button', { name: 'Run Scale a service' }).click();
    const scale = question('How many replicas should search-api run?');
    await expect.poll(() => scale.count(), { timeout: 20_000 }).toBe(1);
    // Newest first: the earlier (declined) scale_service call stays below.
    const scaleCall = result('scale_service').first();
    expect(await scaleCall.locator('.status').textContent()).toBe('waiting…');
    expect(await scaleCall.getByRole('button', { name: 'Retry: Scale a service' }).count()).toBe(0);
    await scaleCall.getByRole('button', { name: 'Cancel call: Scale a service' }).click();
    await expect.poll(() => scale.count(), { timeout: 10_000 }).toBe(0);
    await expect
      .poll(() => scaleCall.locator('.status').textContent(), { timeout: 10_000 })
      .toBe('cancelled');
    expect(await scaleCall.locator('.call-text').textContent()).toMatch(/^Cancelled: /);
    expect(await scaleCall.getByRole('button', { name: /^Cancel call/ }).count()).toBe(0);
    expect(await requests().count()).toBe(0);

    await scaleCall.getByRole('button', { name: 'Retry: Scale a service' }).click();
    await expect.poll(() => scale.count(), { timeout: 20_000 }).toBe(1);
    expect(await scaleCall.locator('.status').textContent()).toBe('waiting…');
    expect(await scaleCall.locator('.attempt').textContent()).toBe(' · run 2 times');
    await scale.getByRole('spinbutton', { name: 'Replicas', exact: true }).fill('7');
    await scale.getByRole('button', { name: 'Accept' }).click();
    await expect
      .poll(() => scaleCall.locator('.call-text').textContent(), { timeout: 20_000 })
      .toBe('Scaled search-api to 7 replicas.');
    expect(await scaleCall.locator('.status').textContent()).toBe('done');

    // Legacy era, URL mode (the server may never finish): the consent is a pushed request the
    // aborted call withdraws; the server drops the sign-in link it had handed out.
    const travelDesk = page.getByRole('article', { name: 'Travel Desk' });
    await travelDesk.getByRole('button', { name: 'Run Link a loyalty account' }).click();
    const consent = question('Sign in to SkyMiles so Travel Desk can link your loyalty account.');
    await expect.poll(() => consent.count(), { timeout: 20_000 }).toBe(1);
    const firstLink = (await consent.locator('[data-waitfor-url]').textContent()) ?? '';
    expect((await fetch(firstLink)).status).toBe(200);
    const linkCall = result('link_account').first();
    await linkCall.getByRole('button', { name: 'Cancel call: Link a loyalty account' }).click();
    await expect.poll(() => consent.count(), { timeout: 10_000 }).toBe(0);
    await expect
      .poll(() => linkCall.locator('.status').textContent(), { timeout: 10_000 })
      .toBe('cancelled');
    await expect.poll(async () => (await fetch(firstLink)).status, { timeout: 10_000 }).toBe(404);

    await linkCall.getByRole('button', { name: 'Retry: Link a loyalty account' }).click();
    await expect.poll(() => consent.count(), { timeout: 20_000 }).toBe(1);
    const secondLink = await consent.locator('[data-waitfor-url]').textContent();
    expect(secondLink).not.toBe(firstLink);
    await page.screenshot({ path: join(artifacts, 'example-e2e-retry.png'), fullPage: true });
    const popup = context.waitForEvent('page');
    await consent.getByRole('button', { name: `Open 127.0.0.1:${signInPort()}` }).click();
    const signIn = await popup;
    await signIn.waitForLoadState();
    await signIn.getByLabel('Username').fill('grace.hopper');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => linkCall.locator('.call-text').textContent(), { timeout: 20_000 })
      .toBe('Linked SkyMiles account grace.hopper to your Travel Desk profile.');
    await signIn.close();
    expect(await requests().count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('keeps a "finish in the other tab" note only while its call runs', async () => {
    // Legacy era, URL mode after consent: the call waits for the sign-in. Cancelling the call ends
    // that wait, so the note must go with it, and a Retry must not bring back the old one.
    const travelDesk = page.getByRole('article', { name: 'Travel Desk' });
    const waits = page.getByRole('list', { name: 'Waiting for you in the browser' }).locator('li');
    const consent = question('Sign in to SkyMiles so Travel Desk can link your loyalty account.');
    const linkCall = result('link_account').first();
    const consentAndOpen = async () => {
      await expect.poll(() => consent.count(), { timeout: 20_000 }).toBe(1);
      const popup = context.waitForEvent('page');
      await consent.getByRole('button', { name: `Open 127.0.0.1:${signInPort()}` }).click();
      const signIn = await popup;
      await signIn.waitForLoadState();
      return signIn;
    };
    const cancelWhileWaiting = async () => {
      const signIn = await consentAndOpen();
      await expect.poll(() => waits.count()).toBe(1);
      expect(await waits.textContent()).toContain('Travel Desk is waiting for you');
      await linkCall.getByRole('button', { name: 'Cancel call: Link a loyalty account' }).click();
      await expect
        .poll(() => linkCall.locator('.status').textContent(), { timeout: 10_000 })
        .toBe('cancelled');
      await expect.poll(() => waits.count(), { timeout: 10_000 }).toBe(0);
      await signIn.close();
    };

    await travelDesk.getByRole('button', { name: 'Run Link a loyalty account' }).click();
    await cancelWhileWaiting();
    // Two cancelled attempts, then a third: never more than the one note of the running attempt.
    await linkCall.getByRole('button', { name: 'Retry: Link a loyalty account' }).click();
    await expect.poll(() => consent.count(), { timeout: 20_000 }).toBe(1);
    expect(await waits.count()).toBe(0);
    await cancelWhileWaiting();
    await linkCall.getByRole('button', { name: 'Retry: Link a loyalty account' }).click();
    const signIn = await consentAndOpen();
    await expect.poll(() => waits.count()).toBe(1);
    expect(await linkCall.locator('.attempt').textContent()).toBe(' · run 3 times');
    await signIn.getByLabel('Username').fill('ada.lovelace');
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => linkCall.locator('.call-text').textContent(), { timeout: 20_000 })
      .toBe('Linked SkyMiles account ada.lovelace to your Travel Desk profile.');
    await signIn.close();
    await expect.poll(() => waits.count()).toBe(0);
    expect(await requests().count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("asks the app's own tool in the same list, the zod refinement shown on re-ask", async () => {
    // A host-side tool (no MCP server) next to a server's tool: both questions share the one list.
    const host = page.getByRole('article', { name: 'This app' });
    const deployConsole = page.getByRole('article', { name: 'Deploy Console' });
    expect(await host.locator('.era').textContent()).toBe('host-side · no MCP');
    await host.getByRole('button', { name: 'Run Plan a trip budget' }).click();
    await deployConsole.getByRole('button', { name: 'Run Scale a service' }).click();
    const plan = question('Plan a trip budget: when do you travel');
    const scale = question('How many replicas should search-api run?');
    await expect.poll(() => requests().count(), { timeout: 20_000 }).toBe(2);
    expect(await plan.locator('[data-waitfor-server]').textContent()).toBe('This app');
    expect(await scale.locator('[data-waitfor-server]').textContent()).toBe('Deploy Console');
    const budgetCall = result('plan_trip_budget').first();
    expect(await budgetCall.locator('.status').textContent()).toBe('waiting…');

    // The form's own rules pass (two real dates), zod's refinement does not: the tool asks again
    // with its message on the return date and the person's values kept.
    await plan.getByLabel('Departure date').fill('2027-03-14');
    await plan.getByLabel('Return date').fill('2027-03-10');
    await plan.getByRole('button', { name: 'Accept' }).click();
    await expect
      .poll(() => plan.locator('[data-waitfor-attempt]').textContent(), { timeout: 20_000 })
      .toBe('Asked again: please check your answer.');
    expect(await plan.getByRole('alert').allTextContents()).toEqual([
      expect.stringContaining('The return date must be after the departure date.'),
    ]);
    expect(await plan.getByLabel('Departure date').inputValue()).toBe('2027-03-14');
    await page.screenshot({ path: join(artifacts, 'example-e2e-host.png'), fullPage: true });
    await plan.getByLabel('Return date').fill('2027-03-18');
    await plan.getByLabel('Travellers').fill('3');
    await plan.getByRole('button', { name: 'Accept' }).click();

    // The tool runner's second round: an approval, then the typed result in the log.
    const save = question('Save a budget of EUR 1440 for 3 travellers over 4 days?');
    await expect.poll(() => save.count(), { timeout: 20_000 }).toBe(1);
    expect(await save.locator('[data-waitfor-server]').textContent()).toBe('This app');
    await save.getByRole('button', { name: 'Approve' }).click();
    await expect
      .poll(() => budgetCall.locator('.call-text').textContent(), { timeout: 20_000 })
      .toBe(
        'Saved a budget of EUR 1440 for 3 travellers, 4 days from 2027-03-14 to 2027-03-18 at EUR 120 a day each.',
      );
    expect(await budgetCall.locator('.status').textContent()).toBe('done');
    expect(await scale.count()).toBe(1);
    await scale.getByRole('button', { name: 'Decline' }).click();
    await expect
      .poll(() => result('scale_service').first().locator('.call-text').textContent(), {
        timeout: 20_000,
      })
      .toBe('search-api was left as it is.');
    expect(await requests().count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("cancels the app's own tool (its question leaves the list) and retries it", async () => {
    const host = page.getByRole('article', { name: 'This app' });
    const plan = question('Plan a trip budget: when do you travel');
    await host.getByRole('button', { name: 'Run Plan a trip budget' }).click();
    await expect.poll(() => plan.count(), { timeout: 20_000 }).toBe(1);
    const budgetCall = result('plan_trip_budget').first();
    await budgetCall.getByRole('button', { name: 'Cancel call: Plan a trip budget' }).click();
    await expect.poll(() => plan.count(), { timeout: 10_000 }).toBe(0);
    await expect
      .poll(() => budgetCall.locator('.status').textContent(), { timeout: 10_000 })
      .toBe('cancelled');
    expect(await budgetCall.locator('.call-text').textContent()).toMatch(/^Cancelled: /);

    await budgetCall.getByRole('button', { name: 'Retry: Plan a trip budget' }).click();
    await expect.poll(() => plan.count(), { timeout: 20_000 }).toBe(1);
    expect(await budgetCall.locator('.attempt').textContent()).toBe(' · run 2 times');
    await plan.getByRole('button', { name: 'Decline' }).click();
    await expect
      .poll(() => budgetCall.locator('.call-text').textContent(), { timeout: 20_000 })
      .toBe('No budget planned (declined).');
    // A declined question reads "declined" for every tool, whatever the tool then returned.
    expect(await budgetCall.locator('.status').textContent()).toBe('declined');
    expect(await requests().count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
