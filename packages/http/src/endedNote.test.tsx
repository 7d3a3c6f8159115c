// @vitest-environment jsdom
/**
 * @waitfor/react's closed note on a remote page, over a real handler on a real Node http server:
 * a question held by a view that vanishes because it ended elsewhere says how — from the same
 * change event that closes the view — with core's in-memory inbox and a PGlite store fleet.
 */
import { accept } from '@waitfor/core';
import type { Request as WaitforRequest } from '@waitfor/core';
import { ApprovalView, WaitforProvider } from '@waitfor/react';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { drivers } from '../../store/src/__fixtures__/fleet';
import { createRemoteInbox } from './remoteInbox';
import type { RemoteInbox } from './remoteInbox';
import { as } from './__tests__/host';
import { fleetEnding, memoryEnding } from './__tests__/endingHosts';
import type { EndingHost } from './__tests__/endingHosts';

let ending: EndingHost | undefined;
let remote: RemoteInbox | undefined;
afterEach(async () => {
  cleanup();
  remote?.close();
  await ending?.close();
  ending = undefined;
});

let next = 0;
const trip = (extra: Partial<WaitforRequest> = {}): WaitforRequest => ({
  id: `trip-${++next}`,
  kind: 'approval',
  prompt: 'Book the trip?',
  data: { origin: { server: 'Travel Desk' } },
  ...extra,
});

/** The page shows `request` in a view of its own once its remote inbox lists it. */
async function show(request: WaitforRequest) {
  remote = createRemoteInbox({ url: ending!.host.url, headers: as('alice'), retryMs: 20 });
  await vi.waitFor(() => expect(remote!.get(request.id)).toBeDefined());
  const view = render(
    <WaitforProvider inbox={remote}>
      <ApprovalView request={request} />
    </WaitforProvider>,
  );
  const note = () => view.container.querySelector('.waitfor-closed')?.textContent;
  expect(note()).toBeUndefined();
  // Every note the page ever shows: the reason must come with the change that closes the view,
  // never after a first "no longer open".
  const seen: (string | undefined)[] = [];
  const observer = new MutationObserver(() => {
    if (note() !== undefined && seen.at(-1) !== note()) seen.push(note());
  });
  observer.observe(view.container, { subtree: true, childList: true, characterData: true });
  observers.push(observer);
  return { note, seen };
}

const observers: MutationObserver[] = [];
afterEach(() => {
  for (const observer of observers.splice(0)) observer.disconnect();
});

const kinds = [
  memoryEnding,
  fleetEnding('store fleet (PGlite)', () => drivers.pglite({ pollMs: 0 })),
];

describe.each(kinds)('$name', (kind) => {
  it('answered on another page: "Answered elsewhere" (by whom, where the inbox keeps it)', async () => {
    ending = await kind.start();
    const request = trip();
    void ending.asker.waitFor(request);
    const { note, seen } = await show(request);
    expect(await ending.answerElsewhere(accept(request))).toBe(true);
    const words =
      ending.answeredBy === undefined
        ? 'Answered elsewhere: this request is no longer open.'
        : `Answered elsewhere by ${ending.answeredBy}: this request is no longer open.`;
    await vi.waitFor(() => expect(note()).toBe(words));
    expect(seen).toEqual([words]);
  });

  it('expired where it was asked: "This question expired."', async () => {
    ending = await kind.start();
    const request = trip({ expiresAt: new Date(Date.now() + 400).toISOString() });
    const waiting = ending.asker.waitFor(request);
    const { note, seen } = await show(request);
    await expect(waiting).resolves.toMatchObject({ reason: 'expired' });
    await vi.waitFor(() => expect(note()).toBe('This question expired.'));
    expect(seen).toEqual(['This question expired.']);
  });

  it('the asker\'s abort: "The asker no longer needs this answer."', async () => {
    ending = await kind.start();
    const controller = new AbortController();
    const request = trip();
    void ending.asker.waitFor(request, { signal: controller.signal });
    const { note, seen } = await show(request);
    controller.abort();
    await vi.waitFor(() => expect(note()).toBe('The asker no longer needs this answer.'));
    expect(seen).toEqual(['The asker no longer needs this answer.']);
  });
});
