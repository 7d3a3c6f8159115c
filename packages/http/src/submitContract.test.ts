import { accept, createInbox, decline } from '@waitfor/core';
import type { Inbox, Request as WaitforRequest } from '@waitfor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRemoteInbox } from './remoteInbox';
import { as, inboxKinds, startHost } from './__tests__/host';
import type { Host } from './__tests__/host';

// One `submit` contract for every inbox: true when this Answer won (first answer wins), false when
// the question was already answered or is unknown; the asker gets the winning answer.
const question = (id: string): WaitforRequest => ({ id, kind: 'question', prompt: `${id}?` });

interface Place {
  /** The inbox under test, and how a question reaches it (asked where it lives). */
  inbox: Inbox;
  ask(request: WaitforRequest): Promise<unknown>;
  /** Waits until the inbox lists `id`. */
  listed(id: string): Promise<void>;
  close(): Promise<void>;
}

const listedIn = (inbox: Inbox) => (id: string) =>
  vi.waitFor(() => expect(inbox.get(id)).toBeDefined());

const places: { name: string; open(): Promise<Place> }[] = [
  {
    name: "core's inbox",
    async open() {
      const inbox = createInbox();
      return { inbox, ask: inbox.waitFor, listed: listedIn(inbox), close: async () => {} };
    },
  },
  ...inboxKinds
    .filter((kind) => kind.name.startsWith('store'))
    .map((kind) => ({
      name: kind.name,
      async open(): Promise<Place> {
        const opened = await kind.open();
        const inbox = await opened.inboxFor('alice');
        return { inbox, ask: inbox.waitFor, listed: listedIn(inbox), close: opened.close };
      },
    })),
  ...inboxKinds.map((kind) => ({
    name: `remote inbox, over the ${kind.name}`,
    async open(): Promise<Place> {
      const host: Host = await startHost(kind);
      const inbox = createRemoteInbox({ url: host.url, headers: as('alice'), retryMs: 20 });
      return {
        inbox,
        ask: (request) => host.ask('alice', request),
        listed: listedIn(inbox),
        close: async () => {
          inbox.close();
          await host.close();
        },
      };
    },
  })),
];

describe.each(places)('submit on the $name', (place) => {
  let opened: Place | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  it('true for the first answer, which the asker gets; false for a second one and for an unknown id', async () => {
    opened = await place.open();
    const { inbox } = opened;
    const asked = opened.ask(question('q1'));
    await opened.listed('q1');
    expect(await inbox.submit(accept(question('q1'), { pick: 'first' }))).toBe(true);
    expect(await asked).toMatchObject({ id: 'q1', ok: true, data: { pick: 'first' } });
    expect(await inbox.submit(decline(question('q1')))).toBe(false);
    expect(await inbox.submit(accept(question('nobody')))).toBe(false);
  });
});
