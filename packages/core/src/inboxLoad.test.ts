import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accept, createInbox } from '@waitfor/core';
import type { Answer } from '@waitfor/core';

afterEach(() => {
  vi.useRealTimers();
});

describe('inbox under load', () => {
  it(
    'settles 10,000 concurrent Requests answered in random order, with aborts and expiries among them',
    { timeout: 30_000 },
    async () => {
      vi.useFakeTimers();
      const start = Date.UTC(2026, 0, 1);
      vi.setSystemTime(start);
      const inbox = createInbox();
      const count = 10_000;
      // Request i: every 7th is aborted, every 11th (not aborted) expires after 1 s, the rest are answered.
      const fate = (index: number): 'abort' | 'expire' | 'answer' =>
        index % 7 === 0 ? 'abort' : index % 11 === 0 ? 'expire' : 'answer';
      const controllers = Array.from({ length: count }, () => new AbortController());
      let notifications = 0;
      const unsubscribe = inbox.subscribe(() => notifications++);
      const answers = Array.from({ length: count }, (_, index) =>
        inbox.waitFor(
          {
            id: `q${index}`,
            kind: 'input',
            prompt: `question ${index}`,
            ...(fate(index) === 'expire'
              ? { expiresAt: new Date(start + 1000).toISOString() }
              : {}),
          },
          { signal: controllers[index]!.signal },
        ),
      );
      expect(inbox.getSnapshot()).toHaveLength(count);
      const order = fc.sample(
        fc.shuffledSubarray([...Array(count).keys()], { minLength: count, maxLength: count }),
        {
          numRuns: 1,
          seed: 42,
        },
      )[0]!;
      for (const index of order) {
        if (fate(index) === 'abort') controllers[index]!.abort();
        if (fate(index) === 'answer')
          expect(inbox.answer(accept(`q${index}`, { index }))).toBe(true);
      }
      const expiring = [...Array(count).keys()].filter((index) => fate(index) === 'expire');
      expect(inbox.getSnapshot().map((request) => request.id)).toEqual(
        expiring.map((index) => `q${index}`),
      );
      await vi.advanceTimersByTimeAsync(1000);
      const settled: Answer[] = await Promise.all(answers);
      settled.forEach((answer, index) => {
        expect(answer.id).toBe(`q${index}`);
        if (fate(index) === 'answer')
          expect(answer).toEqual({ id: `q${index}`, ok: true, data: { index } });
        else expect(answer.reason).toBe(fate(index) === 'abort' ? 'cancelled' : 'expired');
      });
      expect(inbox.getSnapshot()).toEqual([]);
      expect(notifications).toBe(2 * count);
      expect(vi.getTimerCount()).toBe(0);
      for (const controller of controllers)
        expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      unsubscribe();
    },
  );
});
