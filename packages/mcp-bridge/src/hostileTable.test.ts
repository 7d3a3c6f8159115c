/**
 * The shared hostile table (src/__fixtures__/hostileCases.ts) through the bridge itself: every
 * client kind through every path that drives it (`attachWaitFor`: v2 of both eras and v1;
 * `connect`: v2 of both eras), against the hostile server over HTTP. The gateway and the adapters
 * run the same table (packages/gateway, ai-sdk, langgraph: hostile*.test.ts); this file is the
 * reference they are read against.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { bridgePaths, openClient } from './__fixtures__/clients';
import {
  answersSent,
  casesOf,
  entriesOf,
  expectEnding,
  personOf,
  sentIn,
  settle,
} from './__fixtures__/hostileCases';
import { failOnUnhandledRejections, withDeadline } from './__fixtures__/hostileHelpers';
import { startHostileHttpServer, type HostileHttpServer } from './__fixtures__/hostileHttp';

failOnUnhandledRejections();

let server: HostileHttpServer;
beforeAll(async () => {
  server = await startHostileHttpServer();
});
afterAll(async () => {
  await server?.close();
});
// Each test counts what the server saw of its own run only.
beforeEach(() => {
  server.log.entries.length = 0;
});

describe.each(bridgePaths)('%s, %s client (%s era)', (path, kind, era) => {
  test.each(casesOf(era))('%s', async (_title, item, ending) => {
    const controller = new AbortController();
    const person = personOf(item.person, controller);
    const { bridge, close } = await openClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: person.waitFor },
      path,
    );
    try {
      const settled = await withDeadline(
        settle(
          bridge.callTool(
            { name: item.tool, arguments: item.arguments ?? {} },
            { ...item.call, signal: controller.signal },
          ),
        ),
        20_000,
      );
      expectEnding(settled, kind === 'v1' ? (item.v1Ends ?? ending) : ending);
      expect(person.requests).toHaveLength(item.asked);
      // An aborted legacy push is answered cancel after the call ended: wait for it, then count.
      await expect.poll(() => answersSent(server.log, item.tool, era)).toBe(sentIn(item, era));
      if (era === 'legacy')
        expect(entriesOf(server.log, item.tool, 'refusal')).toHaveLength(item.refused ?? 0);
      // An abort reaches the open question's own signal (an inbox drops the stale entry).
      if (item.person === 'aborts')
        expect(person.signals.map((signal) => signal.aborted)).toEqual([true]);
    } finally {
      await close();
    }
  });
});
