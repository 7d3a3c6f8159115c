import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInbox } from '@waitfor/core';
import type { Inbox, Request as WaitforRequest } from '@waitfor/core';
import { createStore } from '@waitfor/store';
import { createInboxHandler } from '../handler';
import type { AnswerableInbox, InboxHandler, InboxHandlerOptions } from '../handler';
import { toNodeListener } from '../node';

/** The page's origin in these tests; every other origin is foreign. */
export const appOrigin = 'http://app.test';

/** Bearer tokens of the two people in these tests, by scope. */
export const tokens = { alice: 'token-alice', bob: 'token-bob' } as const;

/** Headers of a signed-in person's browser. */
export const as = (scope: keyof typeof tokens): Record<string, string> => ({
  authorization: `Bearer ${tokens[scope]}`,
  origin: appOrigin,
});

/** A kind of inbox behind the handler: core's in-memory one, or @waitfor/store's on PGlite. */
export interface InboxKind {
  name: string;
  /** Creates the inboxes of a host, one per scope on demand. */
  open(): Promise<{ inboxFor(scope: string): Promise<AnswerableInbox>; close(): Promise<void> }>;
}

export const inboxKinds: InboxKind[] = [
  {
    name: 'in-memory inbox',
    async open() {
      const inboxes = new Map<string, Inbox>();
      return {
        inboxFor: async (scope) => {
          if (!inboxes.has(scope)) inboxes.set(scope, createInbox());
          return inboxes.get(scope)!;
        },
        close: async () => {},
      };
    },
  },
  {
    name: 'store inbox (PGlite)',
    async open() {
      const store = await createStore({ pollMs: 0 });
      const inboxes = new Map<string, Promise<AnswerableInbox>>();
      return {
        inboxFor: (scope) => {
          if (!inboxes.has(scope)) inboxes.set(scope, store.inbox(scope));
          return inboxes.get(scope)!;
        },
        close: () => store.close(),
      };
    },
  },
];

/** A running host: the handler on a real Node http server on 127.0.0.1. */
export interface Host {
  url: string;
  handler: InboxHandler;
  inboxFor(scope: string): Promise<AnswerableInbox>;
  /** Asks `scope`'s person a question; resolves with the answer. */
  ask(scope: string, request: WaitforRequest): Promise<unknown>;
  /** How many listeners the handler holds on `scope`'s inbox right now. */
  subscribers(scope: string): number;
  close(): Promise<void>;
}

/** Starts a host with `kind`'s inboxes and the handler's `options` (authorize by bearer token). */
export async function startHost(
  kind: InboxKind,
  options: Partial<InboxHandlerOptions> = {},
): Promise<Host> {
  const inboxes = await kind.open();
  const counts = new Map<string, number>();
  // Each scope's inbox, wrapped once to count the handler's subscriptions.
  const wrapped = new Map<string, Promise<AnswerableInbox>>();
  const inboxFor = (scope: string): Promise<AnswerableInbox> => {
    if (!wrapped.has(scope))
      wrapped.set(
        scope,
        inboxes.inboxFor(scope).then((inbox) => {
          const counted = Object.create(inbox) as AnswerableInbox;
          counted.subscribe = (listener) => {
            counts.set(scope, (counts.get(scope) ?? 0) + 1);
            const stop = inbox.subscribe(listener);
            let stopped = false;
            return () => {
              if (!stopped) counts.set(scope, counts.get(scope)! - 1);
              stopped = true;
              stop();
            };
          };
          return counted;
        }),
      );
    return wrapped.get(scope)!;
  };
  const byToken = new Map<string, string>(
    Object.entries(tokens).map(([scope, token]) => [token, scope]),
  );
  const handler = createInboxHandler({
    inboxFor,
    authorize: (request) =>
      byToken.get(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '') ?? null,
    allowedOrigins: [appOrigin],
    basePath: '/api/inbox',
    ...options,
  });
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/inbox`,
    handler,
    inboxFor,
    ask: async (scope, request) => (await inboxFor(scope)).waitFor(request),
    subscribers: (scope) => counts.get(scope) ?? 0,
    async close() {
      handler.closeStreams();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await inboxes.close();
    },
  };
}

/** A form question: an age between 0 and 150. */
export const ageQuestion = (id: string): WaitforRequest => ({
  id,
  kind: 'input',
  prompt: 'How old are you?',
  data: {
    schema: {
      type: 'object',
      properties: { age: { type: 'integer', minimum: 0, maximum: 150 } },
      required: ['age'],
    },
  },
});
