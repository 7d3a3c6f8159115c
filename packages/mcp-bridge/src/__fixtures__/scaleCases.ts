/**
 * The scale cases every public path runs (the bridge's scaling.test.ts, the gateway's, the
 * adapters'): many questions open at once on one connection must cost the same per question at 100
 * and at thousands. No time is measured: the work that would grow is counted instead — the most
 * abort listeners waitfor's code puts on any one signal at once (Node warns past 10, and removing
 * one scans the list: O(n²) in all) — and process warnings are recorded per test.
 *
 * Sizes: 100, 1,000 and the largest an era's transports carry. A legacy era stops at 1,400: each
 * legacy answer is a POST of its own, and the SDKs' HTTP transports hang every POST's fetch on one
 * transport-wide signal (theirs, raised to 1,500 listeners), so past 1,500 answers in flight at
 * once the SDK itself warns, thousands of times. A path with a legacy hop anywhere (a 2025 host or
 * a 2025 server behind the gateway) stops there too.
 */
import { fileURLToPath } from 'node:url';
import { accept, type Answer, type Request, type WaitFor } from '@waitfor/core';
import { expect, onTestFinished } from 'vitest';
import { recordProcessWarnings } from './processWarnings';

/** The most listeners one signal may hold at once (Node warns past 10). */
export const MOST_LISTENERS = 10;

/** The largest number of questions open at once a path whose hops are all `eras` carries. */
export const largestFor = (...eras: ReadonlyArray<'legacy' | 'modern'>): number =>
  eras.includes('legacy') ? 1_400 : 6_000;

/** The sizes of the scale cases: [100, 1,000, the largest the path carries]. */
export const scaleSizes = (...eras: ReadonlyArray<'legacy' | 'modern'>): number[] => [
  100,
  1_000,
  largestFor(...eras),
];

/**
 * Registers, for the calling file, a record of each test's process warnings; the returned
 * function gives them as `name: message` lines (see processWarnings.ts for the tick it waits).
 */
export function recordWarningLines(): () => Promise<string[]> {
  const warningsSoFar = recordProcessWarnings();
  return async () =>
    (await warningsSoFar()).map((warning) => `${warning.name}: ${warning.message}`);
}

/** This repository's packages folder (its sources, run as they are). */
const packagesFolder = fileURLToPath(new URL('../../../', import.meta.url));
/** True when the caller's caller is waitfor's own code (packages/…), not an SDK's or Node's. */
function addedByWaitfor(): boolean {
  // Four frames are all it reads: a full trace (source-mapped by the runner) costs far more.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 4;
  const stack = new Error().stack;
  Error.stackTraceLimit = limit;
  return (stack?.split('\n')[3] ?? '').includes(packagesFolder);
}

type ListenerTarget = {
  addEventListener(type: string, listener: unknown, options?: unknown): void;
  removeEventListener(type: string, listener: unknown): void;
};

/**
 * Count, while the calling test runs, the abort listeners waitfor's code puts on each signal;
 * gives the most any one signal held at once. Patches the prototype of real signals
 * (EventTarget), undone when the test finishes. An SDK's own listeners are not counted (see the
 * legacy sizes above).
 */
export function countListeners(): () => number {
  const held = new WeakMap<object, Set<unknown>>();
  let most = 0;
  const prototype = EventTarget.prototype as ListenerTarget;
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
  onTestFinished(() => {
    Object.assign(prototype, { addEventListener: add, removeEventListener: remove });
  });
  return () => most;
}

/** A person who answers nothing until all `count` questions are open, then every one at once. */
export function patientPerson(count: number): WaitFor {
  const waiting: Array<[Request, (answer: Answer) => void]> = [];
  return (request) =>
    new Promise<Answer>((resolve) => {
      waiting.push([request, resolve]);
      if (waiting.length === count)
        for (const [asked, answer] of waiting.splice(0)) answer(accept(asked, { confirmed: true }));
    });
}

/**
 * The most listeners seen per size in one describe: each within MOST_LISTENERS, and `expectFlat`
 * checks the count did not grow from 100 to 1,000 and to `largest`.
 */
export function listenerTally() {
  const most: Record<number, number> = {};
  return {
    record(size: number, count: number): void {
      most[size] = count;
      expect(count).toBeLessThanOrEqual(MOST_LISTENERS);
    },
    expectFlat(largest: number): void {
      expect(most[1_000]).toBe(most[100]);
      expect(most[largest]).toBe(most[100]);
    },
  };
}
