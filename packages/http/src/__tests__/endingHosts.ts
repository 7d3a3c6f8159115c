import { createInbox } from '@waitfor/core';
import type { Answer, Inbox } from '@waitfor/core';
import type { Fleet } from '../../../store/src/__fixtures__/fleet';
import { drivers } from '../../../store/src/__fixtures__/fleet';
import type { PostgresServer } from '../../../store/src/__fixtures__/postgresServer';
import { startHost } from './host';
import type { Host } from './host';

/**
 * A page's host (the handler on a real Node server, the remote inbox's side) and another place
 * that asks and answers alice's questions: the same in-memory inbox, or another host of a store
 * fleet on one database (PGlite in this process, or a real PostgreSQL).
 */
export interface EndingHost {
  host: Host;
  /** Where alice's questions are asked (and aborted): another host of the fleet, or the inbox. */
  asker: Inbox;
  /** Answers as another page does, elsewhere: `answeredBy` is named where the inbox keeps it. */
  answerElsewhere(answer: Answer): Promise<boolean>;
  /** Who `answerElsewhere` answers as, where the inbox keeps it. */
  answeredBy: string | undefined;
  /** When the question `id` ended, as its row says (the store), else undefined. */
  endedAt(id: string): Promise<number | undefined>;
  close(): Promise<void>;
}

/** A kind of EndingHost. */
export interface EndingKind {
  name: string;
  start(): Promise<EndingHost>;
}

export const memoryEnding: EndingKind = {
  name: 'in-memory inbox',
  async start() {
    const inbox = createInbox();
    const host = await startHost({
      name: 'in-memory inbox',
      open: async () => ({ inboxFor: async () => inbox, close: async () => {} }),
    });
    return {
      host,
      asker: inbox,
      answerElsewhere: async (answer) => inbox.answer(answer),
      answeredBy: undefined,
      endedAt: async () => undefined,
      close: () => host.close(),
    };
  },
};

/** Two store hosts on one database: the page's handler on host a, the asker and answerer on b. */
export const fleetEnding = (name: string, open: () => Promise<Fleet>): EndingKind => ({
  name,
  async start() {
    const fleet = await open();
    const inboxes = new Map<string, ReturnType<Fleet['a']['inbox']>>();
    const host = await startHost({
      name,
      open: async () => ({
        inboxFor: (scope) => {
          if (!inboxes.has(scope)) inboxes.set(scope, fleet.a.inbox(scope));
          return inboxes.get(scope)!;
        },
        close: async () => {},
      }),
    });
    const asker = await fleet.b.inbox('alice', { answeredBy: 'Ada' });
    return {
      host,
      asker,
      answerElsewhere: (answer) => asker.submit(answer),
      answeredBy: 'Ada',
      async endedAt(id) {
        const [row] = await fleet.query('SELECT ended_at FROM waitfor_questions WHERE id = $1', [
          id,
        ]);
        return new Date(row!.ended_at as Date).getTime();
      },
      async close() {
        await host.close();
        await fleet.close();
      },
    };
  },
});

/** The kinds: in memory, a PGlite fleet, and a PostgreSQL fleet on `server()` once started. */
export const endingKinds = (server: () => PostgresServer): EndingKind[] => [
  memoryEnding,
  fleetEnding('store fleet (PGlite)', () => drivers.pglite({ pollMs: 0 })),
  fleetEnding('store fleet (PostgreSQL)', () => drivers.postgres(server(), { pollMs: 0 })),
];
