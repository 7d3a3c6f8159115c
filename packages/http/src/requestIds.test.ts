/**
 * Every id core accepts is answerable over HTTP: a question whose id core's parseRequest (and so
 * every inbox) takes is listed by createRemoteInbox and answered through the real handler on a
 * real Node server (in-memory and store inboxes); any other id is refused when the Request is
 * parsed, with `invalid_request` on `id` (so it never reaches a list it could not leave). An inbox
 * that keeps less than core accepts (the store: no U+0000) refuses the same way, before listing.
 * A property over ids: URL-path specials (`.`, `..`, their encodings, slashes, `?`, `#`), unicode
 * with lone surrogates, long ones.
 */
import { accept, parseRequest, WaitforError } from '@waitfor/core';
import type { Request as WaitforRequest } from '@waitfor/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { as, inboxKinds, startHost, type Host } from './__tests__/host';
import { createRemoteInbox, type RemoteInbox } from './remoteInbox';

/** The id core refuses, as its typed error says; undefined when core takes it. */
function refusal(request: WaitforRequest): unknown {
  try {
    parseRequest(request);
    return undefined;
  } catch (error) {
    return error;
  }
}

const specials = fc.constantFrom(
  '.',
  '..',
  '...',
  '%2e',
  '%2E%2e',
  '.%2e',
  '/',
  '../answer',
  'a/../b',
  '?x=1',
  '#top',
  ' ',
  '\uD800',
  'ok\uDFFFok',
  '😀',
  'x'.repeat(512),
  'x'.repeat(513),
  // The longest ids, each unit as long as percent-encoding makes it.
  '\u4e00'.repeat(512),
  '😀'.repeat(256),
);
const ids = fc.oneof(
  specials,
  fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((part) => `${part}.`),
  fc.string({ unit: 'binary', minLength: 1_000, maxLength: 1_100 }),
);

describe.each(inboxKinds)('request ids over HTTP, with the $name', (kind) => {
  let host: Host;
  let remote: RemoteInbox;
  beforeAll(async () => {
    host = await startHost(kind);
    remote = createRemoteInbox({ url: host.url, headers: as('alice'), retryMs: 20 });
  });
  afterAll(async () => {
    remote?.close();
    await host?.close();
  });

  it('an id core accepts is listed and answered (or refused by the inbox, never listed); any other is refused as invalid_request on id', async () => {
    await fc.assert(
      fc.asyncProperty(ids, async (id) => {
        const request: WaitforRequest = { id, kind: 'approval', prompt: 'Go ahead?' };
        const refused = refusal(request);
        const asked = host.ask('alice', request).catch((error: unknown) => error);
        if (refused !== undefined) {
          expect(WaitforError.isInstance(refused) && [refused.code, refused.path]).toEqual([
            'invalid_request',
            'id',
          ]);
          // The inbox refuses it the same way: nobody is asked, nothing is listed.
          const inboxError = await asked;
          expect(WaitforError.isInstance(inboxError) && inboxError.code).toBe('invalid_request');
          return;
        }
        // Core takes it; an inbox may still keep less (the store holds no U+0000) and refuses it
        // then, typed, before listing it: never listed and then unanswerable.
        let inboxError: unknown;
        void asked.then((outcome) => (inboxError = WaitforError.isInstance(outcome) && outcome));
        await vi.waitFor(() => expect(inboxError || remote.get(id)).toBeTruthy(), {
          timeout: 10_000,
        });
        if (inboxError) {
          expect(inboxError).toMatchObject({ code: 'invalid_request', path: 'id' });
          expect(remote.get(id)).toBeUndefined();
          return;
        }
        expect(remote.get(id)).toEqual(request);
        expect(await remote.submit(accept(request))).toBe(true);
        expect(await asked).toEqual({ id, ok: true });
        expect(remote.getAnswerError(id)).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });
});
