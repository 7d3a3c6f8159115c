/**
 * One resolver, both eras: what a call brings itself (waitFor, modes, maxAttempts, serverName)
 * answers its questions in the legacy era as in the modern one, and what the legacy era cannot
 * honour is refused with `invalid_options` before anything is sent. Real servers, real clients.
 */
import { accept, type Answer, type Request } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import {
  openClient,
  withOpenClient,
  scriptedPerson,
  textOf,
  v1PushFixture,
  type ClientKind,
  useDualEraServer,
} from './__fixtures__/clients';
import { BridgeError } from './index';

const server = useDualEraServer();

/** A person who answers only once `release` is called. */
function heldPerson(name: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const person = scriptedPerson(async (request: Request): Promise<Answer> => {
    await gate;
    return accept(request, { name });
  });
  return { ...person, release };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe.each<[ClientKind, 'legacy' | 'modern']>([
  ['v2-legacy', 'legacy'],
  ['v1', 'legacy'],
  ['v2-modern', 'modern'],
])('%s client (%s era)', (kind, era) => {
  it("a call's own waitFor, maxAttempts and serverName serve its questions instead of the attachment's", async () => {
    const attached = scriptedPerson((request) => accept(request, { name: 'Attached' }));
    const own = scriptedPerson((request) => accept(request, { name: 'Own' }));
    await withOpenClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: attached.waitFor, maxAttempts: 3 },
      async (client, bridge) => {
        const result = await bridge.callTool(
          { name: 'ask_form' },
          { waitFor: own.waitFor, serverName: 'Booking desk' },
        );
        expect(textOf(result)).toBe('accept:{"name":"Own"}');
        expect(attached.seen).toHaveLength(0);
        const origin = own.seen[0]?.data?.origin;
        expect(origin).toMatchObject({ server: 'Booking desk', era, tool: 'ask_form' });
        expect(Object.hasOwn(origin ?? {}, 'inputKey')).toBe(era === 'modern');

        // maxAttempts 1: the first invalid form ends the question; the attachment's 3 would re-ask.
        const invalid = scriptedPerson((request) => accept(request, { name: '' }));
        const cancelled = await bridge.callTool(
          { name: 'ask_form' },
          { waitFor: invalid.waitFor, maxAttempts: 1 },
        );
        expect(textOf(cancelled)).toBe('cancel');
        expect(invalid.seen).toHaveLength(1);

        // serverName '' counts as unset: the person sees the server's own name, never an empty one.
        await bridge.callTool({ name: 'ask_form' }, { serverName: '' });
        expect(attached.seen[0]?.data?.origin?.server).toBe('dual-era-fixture');
      },
    );
  });

  it("an attachment's serverName '' falls back to the server's own name", async () => {
    const person = scriptedPerson((request) => accept(request, { name: 'Ada' }));
    await withOpenClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: person.waitFor, serverName: '' },
      async (client, bridge) => {
        await bridge.callTool({ name: 'ask_form' });
        expect(person.seen[0]?.data?.origin?.server).toBe('dual-era-fixture');
      },
    );
  });

  it('a call with its own waitFor and another bridge call in flight', async () => {
    const attached = heldPerson('Attached');
    await withOpenClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: attached.waitFor },
      async (client, bridge) => {
        // A plain call holds a question open; then a call with its own waitFor starts.
        const first = bridge.callTool({ name: 'ask_form' });
        await expect.poll(() => attached.seen.length).toBe(1);
        const own = heldPerson('Own');
        const sentBefore = server.received.length;
        const second = bridge.callTool({ name: 'ask_form' }, { waitFor: own.waitFor });
        if (era === 'legacy') {
          // A push would name neither call: refused before anything is sent.
          const error = await failure(second);
          expect(BridgeError.isInstance(error)).toBe(true);
          expect(error).toMatchObject({ code: 'invalid_options' });
          expect((error as Error).message).toMatch(/must run alone/);
          expect(server.received.length).toBe(sentBefore);
        } else {
          // Modern questions name their call: both run, each asked through its own waitFor.
          await expect.poll(() => own.seen.length).toBe(1);
          own.release();
          expect(textOf(await second)).toBe('accept:{"name":"Own"}');
        }
        attached.release();
        expect(textOf(await first)).toBe('accept:{"name":"Attached"}');

        // The other way round: while a call with its own waitFor runs, a plain call waits its turn.
        const alone = heldPerson('Alone');
        const third = bridge.callTool({ name: 'ask_form' }, { waitFor: alone.waitFor });
        await expect.poll(() => alone.seen.length).toBe(1);
        const sentDuring = server.received.length;
        const fourth = failure(bridge.callTool({ name: 'slow', arguments: { ms: 1 } }));
        if (era === 'legacy') {
          expect(await fourth).toMatchObject({ code: 'invalid_options' });
          expect(server.received.length).toBe(sentDuring);
        } else {
          expect(await fourth).toBeUndefined();
        }
        alone.release();
        expect(textOf(await third)).toBe('accept:{"name":"Alone"}');
      },
    );
  });

  it('what a call cannot honour is refused before anything is sent', async () => {
    const person = scriptedPerson((request) => accept(request, { name: 'Ada' }));
    const { attachment, bridge, close } = await openClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: person.waitFor, modes: ['form'] },
    );
    try {
      const sentBefore = server.received.length;
      const sampling = async () => ({ role: 'assistant', content: {}, model: 'm' });
      const attempts: Array<[string, Promise<unknown>]> = [
        ['sampling', bridge.callTool({ name: 'ask_form' }, { sampling })],
        ['roots', bridge.callTool({ name: 'ask_form' }, { roots: async () => ({ roots: [] }) })],
      ];
      for (const [label, attempt] of attempts) {
        const error = await failure(attempt);
        if (era === 'legacy') expect(error, label).toMatchObject({ code: 'invalid_options' });
        else expect(error, label).toBeUndefined();
      }
      // Either era: a call's own maxAttempts is a count, as the attachment's (NaN would re-ask an
      // invalid form without end).
      for (const maxAttempts of [0, 1.5, Number.NaN]) {
        const error = await failure(bridge.callTool({ name: 'ask_form' }, { maxAttempts }));
        expect(error, String(maxAttempts)).toMatchObject({ code: 'invalid_options' });
        expect((error as Error).message).toMatch(/maxAttempts must be an integer/);
      }
      if (era === 'legacy') expect(server.received.length).toBe(sentBefore);

      // Either era: a mode the client never declared cannot be asked (modern servers check the
      // capabilities sent with each request, so it would only fail there).
      const undeclared = await failure(bridge.callTool({ name: 'ask_url' }, { modes: ['url'] }));
      expect(undeclared).toMatchObject({ code: 'invalid_options' });
      expect((undeclared as Error).message).toMatch(/Undeclared modes/);
      if (era === 'legacy') expect(server.received.length).toBe(sentBefore);

      // Without an attachment a legacy call has no handler for pushed questions: refused.
      attachment.detach();
      const sentDetached = server.received.length;
      const own = scriptedPerson((request) => accept(request, { name: 'Own' }));
      const detached = bridge.callTool({ name: 'ask_form' }, { waitFor: own.waitFor });
      if (era === 'legacy') {
        const error = await failure(detached);
        expect(error).toMatchObject({ code: 'invalid_options' });
        expect((error as Error).message).toMatch(/attachWaitFor/);
        expect(server.received.length).toBe(sentDetached);
      } else {
        expect(textOf(await detached)).toBe('accept:{"name":"Own"}');
      }
    } finally {
      await close();
    }
  });
});

describe("a call's own modes: the bridge's refusal where the SDK's gate passes", () => {
  it.each<ClientKind>(['v2-legacy', 'v1'])(
    '%s client: a declared mode the call does not serve is refused with -32602, without asking',
    async (kind) => {
      const person = scriptedPerson((request) => ({ id: request.id, ok: true }));
      await withOpenClient(
        kind,
        'stdio',
        { args: [v1PushFixture] },
        { waitFor: person.waitFor },
        async (client, bridge) => {
          // url is declared, so the SDK hands the push to the bridge, which refuses it for this call.
          const refused = await bridge.callTool(
            { name: 'push', arguments: { mode: 'url' } },
            { modes: ['form'] },
          );
          expect(textOf(refused)).toBe('error:-32602');
          expect(person.seen).toHaveLength(0);
          // The same push on a call that serves url reaches the person.
          expect(textOf(await bridge.callTool({ name: 'push', arguments: { mode: 'url' } }))).toBe(
            'accept',
          );
          expect(person.seen).toHaveLength(1);
        },
      );
    },
  );

  it('v2-modern client: an inputRequest in a mode the call does not serve is unsupported_input_request', async () => {
    const person = scriptedPerson((request) => ({ id: request.id, ok: true }));
    await withOpenClient(
      'v2-modern',
      'http',
      { url: server.url },
      { waitFor: person.waitFor },
      async (client, bridge) => {
        const error = await failure(bridge.callTool({ name: 'ask_url' }, { modes: ['form'] }));
        expect(error).toMatchObject({ code: 'unsupported_input_request' });
        expect(person.seen).toHaveLength(0);
      },
    );
  });
});
