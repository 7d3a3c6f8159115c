/**
 * Shared by the hostile suites (src/hostile*.test.ts): a recording waitFor, typed-rejection and
 * deadline helpers, and a process 'unhandledRejection' guard that fails the test which caused one.
 */
import type { Answer, Request, WaitFor } from '@waitfor/core';
import { accept } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { BridgeError } from '../index';

/**
 * Registers, for the calling test file, a guard that fails a test after which a promise rejected
 * unhandled. Deterministic, not timed: Node reports an unhandled rejection right after the
 * microtask queue drains, before the next macrotask, so one `setImmediate` turn after the test (and
 * its own afterEach cleanups, which run first) has seen every rejection of a promise already
 * settled — however slow the machine. A promise that rejects later still (a stray timer) is caught
 * at the end of the file.
 */
export function failOnUnhandledRejections(): void {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => {
    unhandled.push(reason);
  };
  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
  afterEach(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    unhandled.length = 0;
  });
}

/** A waitFor that records every Request (and signal) it is handed and answers through `answer`. */
export function recordingWaitFor(
  answer: (request: Request, signal?: AbortSignal) => Promise<Answer>,
) {
  const requests: Request[] = [];
  const signals: AbortSignal[] = [];
  const waitFor: WaitFor = (request, context) => {
    requests.push(request);
    if (context?.signal !== undefined) signals.push(context.signal as AbortSignal);
    return answer(request, context?.signal as AbortSignal | undefined);
  };
  return { waitFor, requests, signals };
}

/** The person confirms. */
export const confirmYes = (request: Request): Promise<Answer> =>
  Promise.resolve(accept(request, { confirmed: true }));

/** The BridgeError `promise` rejects with; fails when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<BridgeError> {
  const error = await promise.then(
    (value) => {
      throw new Error(
        `expected a BridgeError, got a result: ${JSON.stringify(value).slice(0, 300)}`,
      );
    },
    (reason: unknown) => reason,
  );
  if (!BridgeError.isInstance(error))
    throw new Error(`expected a BridgeError, got ${String(error)}`);
  return error;
}

/** `promise`, or a rejection naming the hang when it is still pending after `ms`. */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending ${ms} ms after the abort`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** The text blocks of an MCP result, joined. */
export const resultText = (result: unknown): string =>
  ((result as { content?: Array<{ text?: string }> }).content ?? [])
    .map((block) => block.text ?? '')
    .join('\n');
