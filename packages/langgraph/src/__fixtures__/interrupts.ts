/** What the adapter's graph tests share: a fresh thread per run, and a run's one waitfor interrupt. */
import { expect } from 'vitest';
import { waitforInterrupts, type WaitforInterrupt } from '../index';

let thread = 0;
/** A run config on a thread no other run of this file used. */
export const threadConfig = () => ({ configurable: { thread_id: `thread-${++thread}` } });

/** The one interrupt of a run's result (fails the test when there is not exactly one). */
export function onlyInterrupt(result: unknown): WaitforInterrupt {
  const interrupts = waitforInterrupts(result);
  expect(interrupts).toHaveLength(1);
  return interrupts[0]!.value;
}
