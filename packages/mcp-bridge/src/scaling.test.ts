/**
 * Many questions open at once on one connection cost the same per question whether there are 100
 * or 6,000 (legacy era: 1,400), through `attachWaitFor` and through `connect`, in both eras: no
 * signal collects a listener per question (Node warns past 10, and removing one scans the list:
 * O(n²) in all). Real hostile server over HTTP (`many_questions {size}`: one modern round of `size` inputRequests, or
 * `size` concurrent legacy pushes in one call), real clients of both SDK generations.
 *
 * No time is measured: the work that would grow is counted instead (the most abort listeners
 * waitfor's code puts on any one signal at once, all of them real AbortSignals), and the test's
 * deadline catches a blocked loop. The counting, the sizes and why the legacy era stops at 1,400:
 * __fixtures__/scaleCases.ts, shared with the gateway's and the adapters' scale suites.
 */
import { describe, expect, it } from 'vitest';
import { bridgePaths, openClient, textOf } from './__fixtures__/clients';
import { useHostileHttpServer } from './__fixtures__/hostileHttp';
import {
  countListeners,
  largestFor,
  listenerTally,
  patientPerson,
  recordWarningLines,
  scaleSizes,
} from './__fixtures__/scaleCases';

const server = useHostileHttpServer();

const processWarnings = recordWarningLines();

describe.each(bridgePaths)('%s, %s client (%s era)', (path, kind, era) => {
  const tally = listenerTally();
  const largest = largestFor(era);
  it.each(scaleSizes(era))(
    '%d questions open at once: no signal holding a listener each, no process warning',
    async (size) => {
      const mostListeners = countListeners();
      const { bridge, close } = await openClient(
        kind,
        'http',
        { url: server.url },
        { waitFor: patientPerson(size), limits: { inputRequests: size } },
        path,
      );
      try {
        const result = await bridge.callTool(
          { name: 'many_questions', arguments: { size } },
          { timeout: 600_000 },
        );
        expect(textOf(result)).toBe(`answered ${size}`);
        tally.record(size, mostListeners());
        expect(await processWarnings()).toEqual([]);
      } finally {
        await close();
      }
    },
    // A deadline for a blocked loop on a loaded 2-core machine, not a measurement.
    120_000,
  );

  it(`holds as many listeners on one signal for ${largest} questions as for 100 (flat)`, () => {
    tally.expectFlat(largest);
  });
});
