/**
 * Many questions open at once on one connection cost the same per question whether there are 100
 * or 6,000 (legacy era: 1,400, see below), through `attachWaitFor` and through `connect`, in both
 * eras: no signal collects a
 * listener per question (Node warns past 10, and removing one scans the list: O(n²) in all). Real
 * hostile server over HTTP (`many_questions {size}`: one modern round of `size` inputRequests, or
 * `size` concurrent legacy pushes in one call), real clients of both SDK generations.
 *
 * No time is measured: the work that would grow is counted instead (the most abort listeners
 * waitfor's code puts on any one signal at once, all of them real AbortSignals), and the test's deadline catches a blocked loop.
 *
 * The legacy era stops at 1,400: each legacy answer is a POST of its own, and the SDKs' HTTP
 * transports hang every POST's fetch on one transport-wide signal (theirs, raised to 1,500
 * listeners), so past 1,500 answers in flight at once the SDK itself warns, thousands of times.
 */
import { fileURLToPath } from 'node:url';
import { accept, type Answer, type Request, type WaitFor } from '@waitfor/core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { bridgePaths, openClient, textOf } from './__fixtures__/clients';
import { startHostileHttpServer, type HostileHttpServer } from './__fixtures__/hostileHttp';
import { recordProcessWarnings } from './__fixtures__/processWarnings';

let server: HostileHttpServer;
beforeAll(async () => {
  server = await startHostileHttpServer();
});
afterAll(async () => {
  await server?.close();
});

const warningsSoFar = recordProcessWarnings();
const processWarnings = async () =>
  (await warningsSoFar()).map((warning) => `${warning.name}: ${warning.message}`);

/** This repository's packages folder (its sources, run as they are). */
const packagesFolder = fileURLToPath(new URL('../../', import.meta.url));
/** True when the caller's caller is waitfor's own code (packages/…), not an SDK's or Node's. */
const addedByWaitfor = () => (new Error().stack?.split('\n')[3] ?? '').includes(packagesFolder);

/**
 * Count, while a test runs, the abort listeners waitfor's code puts on each signal; gives the most
 * any one signal held at once. Patches the prototype of real signals (EventTarget). An SDK's own listeners are not counted (see the legacy case below).
 */
function countListeners(): () => number {
  const held = new WeakMap<object, Set<unknown>>();
  let most = 0;
  const restore: Array<() => void> = [];
  for (const prototype of [EventTarget.prototype] as Array<{
    addEventListener(type: string, listener: unknown, options?: unknown): void;
    removeEventListener(type: string, listener: unknown): void;
  }>) {
    const { addEventListener: add, removeEventListener: remove } = prototype;
    prototype.addEventListener = function (this: object, type, listener, options) {
      if (type === 'abort' && addedByWaitfor()) {
        let listeners = held.get(this);
        if (!listeners) held.set(this, (listeners = new Set()));
        listeners.add(listener);
        most = Math.max(most, listeners.size);
      }
      return add.call(this, type, listener, options);
    };
    prototype.removeEventListener = function (this: object, type, listener) {
      if (type === 'abort') held.get(this)?.delete(listener);
      return remove.call(this, type, listener);
    };
    restore.push(() =>
      Object.assign(prototype, { addEventListener: add, removeEventListener: remove }),
    );
  }
  onTestFinished(() => {
    for (const undo of restore) undo();
  });
  return () => most;
}

/** A person who answers nothing until all `count` questions are open, then every one at once. */
function patientPerson(count: number): WaitFor {
  const waiting: Array<[Request, (answer: Answer) => void]> = [];
  return (request) =>
    new Promise<Answer>((resolve) => {
      waiting.push([request, resolve]);
      if (waiting.length === count)
        for (const [asked, answer] of waiting.splice(0)) answer(accept(asked, { confirmed: true }));
    });
}

describe.each(bridgePaths)('%s, %s client (%s era)', (path, kind, era) => {
  const most: Record<number, number> = {};
  const largest = era === 'modern' ? 6_000 : 1_400;
  it.each([100, 1_000, largest])(
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
        most[size] = mostListeners();
        // Node warns past 10 listeners on one signal.
        expect(most[size]).toBeLessThanOrEqual(10);
        expect(await processWarnings()).toEqual([]);
      } finally {
        await close();
      }
    },
    // A deadline for a blocked loop on a loaded 2-core machine, not a measurement.
    120_000,
  );

  it(`holds as many listeners on one signal for ${largest} questions as for 100 (flat)`, () => {
    expect(most[1_000]).toBe(most[100]);
    expect(most[largest]).toBe(most[100]);
  });
});
