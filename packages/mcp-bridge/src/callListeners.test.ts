/**
 * Many bridge calls in flight on one client must not pile listeners onto one attachment-wide signal
 * (Node prints MaxListenersExceededWarning past 10), yet detaching must still end every one of them.
 * Real dual-era server over stdio (one pipe: the test is about the client, not about sockets), real
 * clients of both SDK generations, both eras, through `attachWaitFor` and through `connect`; any
 * process warning fails the test.
 */
import { accept, createInbox } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { bridgePaths, openClient, textOf } from './__fixtures__/clients';
import { BridgeError } from './index';
import { recordProcessWarnings } from './__fixtures__/processWarnings';

const CALLS = 1_000;
/** Every field of the fixture's form, so the server echoes exactly this. */
const answer = { name: 'Ada', age: 30, color: 'blue' };
/** Calls sent, or answered, at a time (see below). */
const STEP = 10;
/** A loaded 2-core machine gets time to see a step through. */
const WAIT = { timeout: 15_000 };
/** Calls held open on the person when the bridge detaches. */
const WAITING = 100;

const warningsSoFar = recordProcessWarnings();
const processWarnings = async () =>
  (await warningsSoFar()).map((warning) => `${warning.name}: ${warning.message}`);

describe.each(bridgePaths)('%s, %s client (%s era)', (path, kind, era) => {
  it(`holds ${CALLS} concurrent calls without a process warning`, async () => {
    const inbox = createInbox();
    const { bridge, close } = await openClient(kind, 'stdio', {}, { waitFor: inbox.waitFor }, path);
    try {
      // Every call stays in flight on its open question until all of them are open. The calls go
      // out, and are answered, a few at a time: the SDKs' stdio transports add a 'drain' listener
      // per message written while the pipe is full, a warning that is theirs, not the bridge's.
      const calls: Array<Promise<unknown>> = [];
      let settled = 0;
      for (let start = 0; start < CALLS; start += STEP) {
        for (let index = start; index < start + STEP; index += 1) {
          const call = bridge.callTool({ name: 'ask_form' });
          calls.push(call);
          void call.finally(() => (settled += 1)).catch(() => undefined);
        }
        await expect.poll(() => inbox.getSnapshot().length, WAIT).toBe(start + STEP);
      }
      const questions = inbox.getSnapshot();
      for (let start = 0; start < CALLS; start += STEP) {
        for (const question of questions.slice(start, start + STEP))
          inbox.answer(accept(question, answer));
        await expect.poll(() => settled, WAIT).toBe(start + STEP);
      }
      const texts = (await Promise.all(calls)).map(textOf);
      expect(new Set(texts)).toEqual(new Set([`accept:${JSON.stringify(answer)}`]));
      expect(await processWarnings()).toEqual([]);
    } finally {
      await close();
    }
    // A thousand round trips in steps: room for a loaded 2-core machine (a hang still fails).
  }, 180_000);

  it(`detaching ends ${WAITING} calls waiting on the person, without a process warning`, async () => {
    const inbox = createInbox();
    const { attachment, bridge, close } = await openClient(
      kind,
      'stdio',
      {},
      { waitFor: inbox.waitFor },
      path,
    );
    try {
      const calls = Array.from({ length: WAITING }, () =>
        bridge.callTool({ name: 'ask_form' }).then(textOf, (caught: unknown) => caught),
      );
      await expect.poll(() => inbox.getSnapshot().length, WAIT).toBe(WAITING);
      attachment.detach();
      // Every question ends: a modern call ends aborted, a legacy push is answered cancel.
      const outcomes = await Promise.all(calls);
      expect(inbox.getSnapshot()).toEqual([]);
      expect(
        outcomes.every((outcome) =>
          era === 'modern' ? BridgeError.isInstance(outcome) : outcome === 'cancel',
        ),
      ).toBe(true);
      expect(await processWarnings()).toEqual([]);
    } finally {
      await close();
    }
  });
});
