import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, violations } from './browserExample.js';
import { openHostedBrowsers } from './hostedProcess.js';
import type { HostedBrowsers } from './hostedProcess.js';

/**
 * The agent mode of the hosted example in Chromium: a message to the AI SDK agent (its scripted
 * test model) makes it call a server's tool; the approval it asks first and the server's question
 * appear in the question list beside the conversation and are answered there, as every question
 * is; the tool's result reaches the conversation, in the second page too.
 */
describe('the agent mode in Chromium', () => {
  let hosted: HostedBrowsers;
  let page: Page;
  let other: Page;

  beforeAll(async () => {
    hosted = await openHostedBrowsers('waitfor-agent-e2e-');
    [page, other] = hosted.pages;
  }, 240_000);

  afterAll(async () => {
    await hosted?.close();
  });

  const agent = (on: Page) => on.getByRole('region', { name: 'Agent' });
  const question = (on: Page, text: string) =>
    on.locator('.waitfor-item').filter({ hasText: text });
  const send = async (text: string) => {
    await agent(page).getByLabel('Message to the agent').fill(text);
    await agent(page).getByRole('button', { name: 'Send' }).click();
  };

  it('a turn whose tool asks: the approval and the question are answered in the list, the result reaches the conversation', async () => {
    await page.goto(hosted.host.url);
    await other.goto(hosted.host.url);
    const deployConsole = page.getByRole('article', { name: 'Deploy Console' });
    await expect
      .poll(() => deployConsole.getByRole('button', { name: /^Run / }).count(), {
        timeout: 30_000,
      })
      .toBe(2);
    await send('Scale search-api');
    await expect
      .poll(() => agent(page).locator('.agent-user').textContent(), { timeout: 20_000 })
      .toContain('Scale search-api');

    const approval = question(page, 'Run Scale a service with {"service":"search-api"}?');
    await expect.poll(() => approval.count(), { timeout: 30_000 }).toBe(1);
    // Beside it, the conversation says the call waits for the approval; Send became Stop.
    const call = agent(page).locator('li.agent-tool[data-tool="scale_service"]');
    await expect
      .poll(() => call.locator('.status').textContent())
      .toBe('waiting for your approval');
    await expect.poll(() => agent(page).getByRole('button', { name: 'Stop' }).count()).toBe(1);
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: join(artifacts, 'example-agent-approval.png'), fullPage: true });
    await approval.getByRole('button', { name: 'Approve' }).click();

    const replicas = question(page, 'How many replicas should search-api run?');
    await expect.poll(() => replicas.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => call.locator('.status').textContent()).toBe('waiting…');
    await replicas.getByRole('spinbutton', { name: 'Replicas' }).fill('4');
    await replicas.getByRole('button', { name: 'Accept' }).click();

    await expect
      .poll(() => call.locator('.status').textContent(), { timeout: 30_000 })
      .toBe('done');
    expect(await call.locator('.call-text').textContent()).toContain('4');
    const reply = agent(page).locator('.agent-assistant').last();
    await expect.poll(() => reply.textContent(), { timeout: 20_000 }).toContain('scale_service:');
    expect(await reply.textContent()).toContain('4');
    expect(await question(page, 'search-api').count()).toBe(0);
    // The second page follows the same host: the same conversation.
    await expect
      .poll(() => agent(other).locator('.agent-assistant').last().textContent(), {
        timeout: 20_000,
      })
      .toContain('scale_service:');
    await page.screenshot({ path: join(artifacts, 'example-agent-done.png'), fullPage: true });
  });

  it("Stop ends the turn: the tool's open question leaves the list, the conversation says so", async () => {
    await send('Book a trip');
    const trip = question(page, 'Where and when would you like to travel?');
    await expect.poll(() => trip.count(), { timeout: 30_000 }).toBe(1);
    await agent(page).getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => trip.count(), { timeout: 20_000 }).toBe(0);
    await expect
      .poll(() => agent(page).locator('.agent-note').last().textContent(), { timeout: 20_000 })
      .toContain('You stopped the agent');
    expect(
      await agent(page)
        .locator('li.agent-tool[data-tool="book_trip"]')
        .last()
        .locator('.status')
        .textContent(),
    ).toBe('cancelled');
    expect(hosted.pageErrors).toEqual([]);
  });
});
