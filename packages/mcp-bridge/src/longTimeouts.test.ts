/**
 * `timeout: Infinity` means no limit, and a delay past what one JavaScript timer holds (2^31 - 1 ms,
 * about 24.8 days) is waited out, not fired at once. Real dual-era server over HTTP, real clients of
 * both SDK generations, both eras, through `attachWaitFor` and `connect`; Node's
 * TimeoutOverflowWarning (an overflowing timer) fails too.
 */
import { accept } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import {
  bridgePaths,
  scriptedPerson,
  sleep,
  textOf,
  useDualEraServer,
  withOpenClient,
} from './__fixtures__/clients';

import { recordProcessWarnings } from './__fixtures__/processWarnings';

const server = useDualEraServer();
/** Every field of the fixture's form, so the server echoes exactly this. */
const answer = { name: 'Ada', age: 30, color: 'blue' };

const warningsSoFar = recordProcessWarnings();
const processWarnings = async () => (await warningsSoFar()).map((warning) => warning.name);

describe.each(bridgePaths)('%s, %s client (%s era)', (path, kind) => {
  it.each([Infinity, 2 ** 31, 2 ** 40])(
    'timeout %s: a question answered after a moment completes the call',
    async (timeout) => {
      // The person takes a moment: an overflowing timer would have ended the call long before.
      const person = scriptedPerson(async (request) => {
        await sleep(150);
        return accept(request, answer);
      });
      await withOpenClient(
        kind,
        'http',
        { url: server.url },
        { waitFor: person.waitFor },
        async (client, bridge) => {
          const result = await bridge.callTool({ name: 'ask_form' }, { timeout });
          expect(textOf(result)).toBe(`accept:${JSON.stringify(answer)}`);
        },
        path,
      );
      expect(await processWarnings()).toEqual([]);
    },
  );

  it('timeout Infinity: a slow server is waited for', async () => {
    await withOpenClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: scriptedPerson((request) => accept(request)).waitFor },
      async (client, bridge) => {
        const result = await bridge.callTool(
          { name: 'slow', arguments: { ms: 150 } },
          { timeout: Infinity },
        );
        expect(textOf(result)).toBe('slept 150');
      },
      path,
    );
    expect(await processWarnings()).toEqual([]);
  });
});
