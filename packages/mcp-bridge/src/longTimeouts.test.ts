/**
 * `timeout: Infinity` means no limit, and a delay past what one JavaScript timer holds (2^31 - 1 ms,
 * about 24.8 days) is waited out, not fired at once. Real dual-era server over HTTP, real clients of
 * both SDK generations, both eras, through `attachWaitFor` and `connect`. The timers run on the
 * test's clock, which fires an overflowing delay at once as Node does; Node's TimeoutOverflowWarning
 * fails too.
 */
import { accept } from '@waitfor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  bridgePaths,
  scriptedPerson,
  sleep,
  textOf,
  useDualEraServer,
  withOpenClient,
} from './__fixtures__/clients';

import { recordProcessWarnings } from './__fixtures__/processWarnings';
import { runClockUntilSettled, useTestClock } from './__fixtures__/testClock';

const server = useDualEraServer();
/** Every field of the fixture's form, so the server echoes exactly this. */
const answer = { name: 'Ada', age: 30, color: 'blue' };

const warningsSoFar = recordProcessWarnings();
const processWarnings = async () => (await warningsSoFar()).map((warning) => warning.name);

describe.each(bridgePaths)('%s, %s client (%s era)', (path, kind) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([Infinity, 2 ** 31, 2 ** 40])(
    'timeout %s: a question answered after a moment completes the call',
    async (timeout) => {
      useTestClock();
      // The person takes a minute of the test's clock, which runs from the call's start: an
      // overflowing timer (fired at once) would end the call long before.
      const person = scriptedPerson(async (request) => {
        await sleep(60_000);
        return accept(request, answer);
      });
      await withOpenClient(
        kind,
        'http',
        { url: server.url },
        { waitFor: person.waitFor },
        async (client, bridge) => {
          const result = await runClockUntilSettled(
            bridge.callTool({ name: 'ask_form' }, { timeout }),
            1_000,
            120_000,
          );
          expect(textOf(result)).toBe(`accept:${JSON.stringify(answer)}`);
        },
        path,
      );
      expect(await processWarnings()).toEqual([]);
    },
  );

  it('timeout Infinity: a slow server is waited for', async () => {
    useTestClock();
    await withOpenClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: scriptedPerson((request) => accept(request)).waitFor },
      async (client, bridge) => {
        // The server sleeps a minute of the test's clock, from after the call began: past the SDKs'
        // 60 s default, which a lost Infinity would fall back to.
        const result = await runClockUntilSettled(
          bridge.callTool({ name: 'slow', arguments: { ms: 60_000 } }, { timeout: Infinity }),
          1_000,
          120_000,
        );
        expect(textOf(result)).toBe('slept 60000');
      },
      path,
    );
    expect(await processWarnings()).toEqual([]);
  });
});
