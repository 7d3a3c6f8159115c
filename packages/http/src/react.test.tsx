// @vitest-environment jsdom
import { createInbox } from '@waitfor/core';
import type { Request as WaitforRequest } from '@waitfor/core';
import { ConnectionStatus, RequestList, WaitforProvider } from '@waitfor/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { afterEach, expect, it } from 'vitest';
import { createRemoteInbox } from './remoteInbox';
import type { RemoteInbox } from './remoteInbox';
import { as, startHost } from './__tests__/host';
import type { Host } from './__tests__/host';

// @waitfor/react's own views, unchanged, on a remote inbox: the server is a real Node http server
// with an in-memory inbox, the page reads it over Node's fetch.
let host: Host | undefined;
const remotes: RemoteInbox[] = [];
afterEach(async () => {
  cleanup();
  for (const inbox of remotes.splice(0)) inbox.close();
  await host?.close();
});

const approval = (id: string): WaitforRequest => ({
  id,
  kind: 'approval',
  prompt: `Book trip ${id}?`,
  data: { origin: { server: 'Travel Desk' } },
});

function Page({ inbox }: { inbox: RemoteInbox }) {
  const state = useSyncExternalStore(inbox.subscribeConnection, inbox.getConnectionState);
  return (
    <WaitforProvider inbox={inbox}>
      <ConnectionStatus server="Inbox" state={state} />
      <RequestList />
    </WaitforProvider>
  );
}

it("answers through @waitfor/react's RequestList; the other page's list empties", async () => {
  host = await startHost({
    name: 'in-memory inbox',
    open: async () => {
      const inbox = createInbox();
      return { inboxFor: async () => inbox, close: async () => {} };
    },
  });
  const [mine, theirs] = [0, 1].map(() => {
    const inbox = createRemoteInbox({ url: host!.url, headers: as('alice'), retryMs: 20 });
    remotes.push(inbox);
    return inbox;
  }) as [RemoteInbox, RemoteInbox];
  const page = render(<Page inbox={mine} />);
  const other = render(<Page inbox={theirs} />);
  const answer = host.ask('alice', approval('trip-1'));

  const button = await within(page.container).findByRole('button', { name: /^Approve — / });
  await within(other.container).findByRole('button', { name: /^Approve — / });
  const status = page.container.querySelector('[data-waitfor-state]');
  expect(status?.getAttribute('data-waitfor-state')).toBe('connected');
  fireEvent.click(button);
  await expect(answer).resolves.toEqual({ id: 'trip-1', ok: true });
  await waitFor(() => expect(within(other.container).getByText('No open requests.')).toBeTruthy());
  expect(within(page.container).getByText('No open requests.')).toBeTruthy();
  expect(screen.getAllByText('No open requests.')).toHaveLength(2);
});
