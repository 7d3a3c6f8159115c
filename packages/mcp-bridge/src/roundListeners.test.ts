/**
 * A modern-era round with many questions answered through an inbox must not pile abort listeners
 * onto one signal (Node prints MaxListenersExceededWarning past 10), yet an abort must still reach
 * every question. Real dual-era server (`fan_out {count: 12}`), real v2 client over HTTP, through
 * `attachWaitFor` and through `connect`.
 */
import { accept, createInbox, type AbortSignalLike, type WaitFor } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { openClient, textOf, useDualEraServer, type BridgePath } from './__fixtures__/clients';
import { BridgeError } from './index';
import { recordProcessWarnings } from './__fixtures__/processWarnings';

const server = useDualEraServer();
const COUNT = 12;

const warningsSoFar = recordProcessWarnings();
const listenerWarnings = async () =>
  (await warningsSoFar()).filter((warning) => warning.name === 'MaxListenersExceededWarning');

/** An inbox whose waitFor records the signal each question got, and runs `whenAllOpen` once all are listed. */
function inboxPerson(whenAllOpen: (inbox: ReturnType<typeof createInbox>) => void) {
  const inbox = createInbox();
  const signals: AbortSignalLike[] = [];
  let fired = false;
  inbox.subscribe(() => {
    if (!fired && inbox.getSnapshot().length === COUNT) {
      fired = true;
      whenAllOpen(inbox);
    }
  });
  const waitFor: WaitFor = (request, context) => {
    if (context?.signal !== undefined) signals.push(context.signal);
    return inbox.waitFor(request, context);
  };
  return { inbox, signals, waitFor };
}

describe.each<BridgePath>(['attachWaitFor', 'connect'])(
  'modern-era round through an inbox, %s',
  (path) => {
    it(`answers ${COUNT} questions in one round without a MaxListenersExceededWarning`, async () => {
      const person = inboxPerson((inbox) => {
        for (const request of inbox.getSnapshot()) {
          inbox.answer(accept(request, { value: request.data?.origin?.inputKey }));
        }
      });
      const { bridge, close } = await openClient(
        'v2-modern',
        'http',
        { url: server.url },
        { waitFor: person.waitFor },
        path,
      );
      try {
        const result = await bridge.callTool({ name: 'fan_out', arguments: { count: COUNT } });
        const keys = Array.from({ length: COUNT }, (_, index) => `q${index + 1}`);
        expect(textOf(result)).toBe(
          keys.map((key) => `${key}=accept:{"value":"${key}"}`).join(' '),
        );
        expect(person.signals).toHaveLength(COUNT);
        // Each question has a signal of its own.
        expect(new Set(person.signals).size).toBe(COUNT);
        expect(await listenerWarnings()).toEqual([]);
      } finally {
        await close();
      }
    });

    it("reaches every question with the call's abort, without a MaxListenersExceededWarning", async () => {
      const controller = new AbortController();
      const person = inboxPerson(() => controller.abort(new Error('stop')));
      const { bridge, close } = await openClient(
        'v2-modern',
        'http',
        { url: server.url },
        { waitFor: person.waitFor },
        path,
      );
      try {
        const error = await bridge
          .callTool({ name: 'fan_out', arguments: { count: COUNT } }, { signal: controller.signal })
          .catch((caught: unknown) => caught);
        expect(BridgeError.isInstance(error) && error.code).toBe('aborted');
        expect(person.signals).toHaveLength(COUNT);
        expect(person.signals.every((signal) => signal.aborted)).toBe(true);
        // Every waitFor ended: nothing is left open in the inbox.
        expect(person.inbox.getSnapshot()).toEqual([]);
        expect(await listenerWarnings()).toEqual([]);
      } finally {
        await close();
      }
    });
  },
);
