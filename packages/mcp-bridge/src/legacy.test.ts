/**
 * Legacy-era behaviour against real servers: the person's time is not cut off by the call's
 * timeout, undeclared modes are refused with -32602, and invalid forms are re-asked, never sent.
 */
import { accept, createInbox, type AbortSignalLike, type WaitFor } from '@waitfor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  openClient,
  withOpenClient,
  scriptedPerson,
  textOf,
  v1PushFixture,
  type ClientKind,
  useDualEraServer,
} from './__fixtures__/clients';
import { runClockUntilSettled, useTestClock } from './__fixtures__/testClock';
import { BridgeError } from './index';

const server = useDualEraServer();

describe.each<ClientKind>(['v2-legacy', 'v1'])('%s client', (kind) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("does not count the person's answer time against the call timeout, but does time out a slow server", async () => {
    // The test's clock: the call's budget, the SDK's timer and the server's slow tool run on it.
    useTestClock();
    // The person takes 2.5× the call's whole budget: a budget still running while the question is
    // open would fire within that time and end the call.
    const person = scriptedPerson(async (request) => {
      await vi.advanceTimersByTimeAsync(2_500);
      return accept(request, { name: 'Slow' });
    });
    await withOpenClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: person.waitFor },
      async (client, bridge) => {
        const result = await bridge.callTool({ name: 'ask_form' }, { timeout: 1_000 });
        expect(textOf(result)).toBe('accept:{"name":"Slow"}');
        expect(person.seen).toHaveLength(1);
        // No question is open: the budget runs, and ends the call before the server's 2.5 s.
        const slow = bridge.callTool(
          { name: 'slow', arguments: { ms: 2_500 } },
          { timeout: 1_000 },
        );
        const error = await runClockUntilSettled(slow).catch((caught: unknown) => caught);
        expect(BridgeError.isInstance(error) && error.code).toBe('timeout');
      },
    );
  });

  // End to end: both SDK clients refuse an undeclared mode themselves before the bridge's handler
  // runs. The bridge's own refusal (a mode declared, but not served for the call) is exercised in
  // callOptions.test.ts.
  it('refuses a pushed mode it did not declare with -32602, without asking', async () => {
    const person = scriptedPerson((request) => accept(request, { name: 'Ada' }));
    await withOpenClient(
      kind,
      'stdio',
      { args: [v1PushFixture] },
      { waitFor: person.waitFor, modes: ['form'] },
      async (client, bridge) => {
        expect(textOf(await bridge.callTool({ name: 'push', arguments: { mode: 'url' } }))).toBe(
          'error:-32602',
        );
        expect(person.seen).toHaveLength(0);
        expect(textOf(await bridge.callTool({ name: 'push', arguments: { mode: 'form' } }))).toBe(
          'accept:{"name":"Ada"}',
        );
        expect(person.seen[0]?.data?.origin).toEqual({
          server: 'v1-push-fixture',
          era: 'legacy',
          tool: 'push',
        });
      },
    );
  });

  it('ends a waiting question when the server gives up on its push (notifications/cancelled)', async () => {
    // The inbox keeps the question listed until its signal aborts. The tool is called with the
    // plain SDK client, so no bridge call is in flight: only the SDK's own signal for the pushed
    // request (aborted by the server's notifications/cancelled) can end the question. The bridge
    // hooks that signal only once somebody waits, as this inbox does.
    const inbox = createInbox();
    const signals: AbortSignalLike[] = [];
    const waitFor: WaitFor = (request, context) => {
      if (context?.signal) signals.push(context.signal);
      return inbox.waitFor(request, context);
    };
    await withOpenClient(kind, 'stdio', { args: [v1PushFixture] }, { waitFor }, async (client) => {
      const call = (client as unknown as SdkToolCaller).callTool({
        name: 'push',
        arguments: { mode: 'form', timeoutMs: 1_000 },
      });
      expect(textOf(await call)).toBe('error:-32001');
      // The person was asked, and the question left the inbox without an answer.
      expect(signals).toHaveLength(1);
      await expect.poll(() => inbox.getSnapshot().length).toBe(0);
      expect(signals[0]!.aborted).toBe(true);
    });
  });
});

/** The tools/call both SDK clients have, called here without the bridge. */
interface SdkToolCaller {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

describe.each<ClientKind>(['v2-legacy', 'v2-modern', 'v1'])(
  'form validation with a %s client',
  (kind) => {
    it('re-asks an invalid form with errors and the values given, then sends the valid one', async () => {
      const person = scriptedPerson((request, index) =>
        index === 0
          ? accept(request, { name: '', age: 'old' })
          : accept(request, { name: 'Bo', age: '41' }),
      );
      await withOpenClient(
        kind,
        'http',
        { url: server.url },
        { waitFor: person.waitFor },
        async (client, bridge) => {
          expect(textOf(await bridge.callTool({ name: 'ask_form' }))).toBe(
            'accept:{"name":"Bo","age":41}',
          );
          expect(person.seen).toHaveLength(2);
          const [first, second] = person.seen;
          expect(second?.id).not.toBe(first?.id);
          expect(second?.data?.values).toEqual({ name: '', age: 'old' });
          expect(Object.keys(second?.data?.errors as object).sort()).toEqual(['age', 'name']);
          expect(second?.data?.attempt).toBe(2);
        },
      );
    });

    it('answers cancel after the bounded number of invalid attempts', async () => {
      const person = scriptedPerson((request) => accept(request, { name: 'x', age: -5 }));
      await withOpenClient(
        kind,
        'http',
        { url: server.url },
        { waitFor: person.waitFor, maxAttempts: 2 },
        async (client, bridge) => {
          expect(textOf(await bridge.callTool({ name: 'ask_form' }))).toBe('cancel');
          expect(person.seen).toHaveLength(2);
        },
      );
    });
  },
);

describe('a throwing waitFor', () => {
  it('answers a pushed question cancel (legacy) and fails the call with wait_failed (modern)', async () => {
    const failing = scriptedPerson(() => {
      throw new Error('UI crashed');
    });
    const legacy = await openClient(
      'v2-legacy',
      'http',
      { url: server.url },
      { waitFor: failing.waitFor },
    );
    try {
      expect(textOf(await legacy.bridge.callTool({ name: 'ask_form' }))).toBe('cancel');
    } finally {
      await legacy.close();
    }
    const modern = await openClient(
      'v2-modern',
      'http',
      { url: server.url },
      { waitFor: failing.waitFor },
    );
    try {
      const error = await modern.bridge
        .callTool({ name: 'ask_form' })
        .catch((caught: unknown) => caught);
      expect(BridgeError.isInstance(error) && error.code).toBe('wait_failed');
    } finally {
      await modern.close();
    }
  });
});
