import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  accept,
  answerCause,
  boundWaitFor,
  parseAnswer,
  parseRequest,
  WaitforError,
} from '@waitfor/core';
import type { Answer, Request, WaitFor } from '@waitfor/core';

const start = Date.UTC(2026, 0, 1, 12);
const day = 86_400_000;

// Valid pieces, and anything at all in their place, so both valid and malformed Requests come up.
const dateTime = fc
  .date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2060-12-31T23:59:59Z'),
    noInvalidDate: true,
  })
  .map((date) => date.toISOString());
const origin = fc.oneof(
  fc.record({ server: fc.string({ minLength: 1 }) }),
  fc.record({ server: fc.anything() }, { requiredKeys: [] }),
  fc.anything(),
);
const validRequest = fc.record(
  {
    id: fc.string({ minLength: 1 }),
    kind: fc.constantFrom('input', 'authorization', 'question'),
    prompt: fc.string(),
    url: fc.webUrl(),
    data: fc.record({ origin: fc.record({ server: fc.string({ minLength: 1 }) }) }),
    expiresAt: dateTime,
  },
  { requiredKeys: ['id', 'kind', 'prompt'] },
);
const anyRequest = fc.record(
  {
    id: fc.oneof({ arbitrary: fc.string({ minLength: 1 }), weight: 3 }, fc.anything()),
    kind: fc.oneof(fc.constantFrom('input', 'question'), fc.anything()),
    prompt: fc.oneof(fc.string(), fc.anything()),
    url: fc.oneof(fc.webUrl(), fc.anything()),
    data: fc.oneof(
      fc.record({ origin }),
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc.anything(),
    ),
    // Mostly malformed strings (the case that used to hang), valid date-times, anything else.
    expiresAt: fc.oneof(dateTime, fc.string(), fc.anything()),
  },
  { requiredKeys: [] },
);
const requestLike = fc.oneof(
  { arbitrary: validRequest, weight: 2 },
  { arbitrary: anyRequest, weight: 2 },
  fc.anything(),
);

/** What the inner waitFor does, `after` ms after it is asked. */
const behaviour = fc.record({
  does: fc.constantFrom(
    'never',
    'accepts',
    'declines',
    'other id',
    'malformed',
    'throws',
    'rejects',
  ),
  after: fc.nat({ max: 3 * day }),
});

const innerWaitFor =
  ({ does, after }: { does: string; after: number }): WaitFor =>
  (request) => {
    if (does === 'throws') throw new Error('inner threw');
    if (does === 'never') return new Promise(() => {});
    return new Promise((resolve, reject) =>
      setTimeout(() => {
        if (does === 'rejects') reject(new Error('inner rejected'));
        else if (does === 'accepts') resolve(accept(request, { x: 1 }));
        else if (does === 'declines') resolve({ id: request.id, ok: false, reason: 'declined' });
        else if (does === 'other id') resolve(accept(`${request.id}-other`));
        else resolve({ id: request.id, ok: 'yes' } as unknown as Answer);
      }, after),
    );
  };

const isValid = (value: unknown): value is Request => {
  try {
    parseRequest(value);
    return true;
  } catch {
    return false;
  }
};

afterEach(() => {
  vi.useRealTimers();
});

describe('boundWaitFor with timeoutMs (property)', () => {
  it('settles every Request, malformed ones too, by timeoutMs, with a well-formed Answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        requestLike,
        behaviour,
        fc.nat({ max: 2 * day }),
        fc.option(fc.nat({ max: 3 * day })),
        async (request, inner, timeoutMs, abortAfter) => {
          vi.useFakeTimers({ now: start });
          try {
            const asked = vi.fn(innerWaitFor(inner));
            const controller = new AbortController();
            if (abortAfter !== null) setTimeout(() => controller.abort('gone'), abortAfter);
            let outcome: { answer: Answer } | { error: unknown } | undefined;
            void boundWaitFor(asked, { timeoutMs })(request as Request, {
              signal: controller.signal,
            }).then(
              (answer) => (outcome = { answer }),
              (error: unknown) => (outcome = { error }),
            );
            await vi.advanceTimersByTimeAsync(timeoutMs);
            expect(outcome).toBeDefined();
            expect(outcome).not.toHaveProperty('error');
            const { answer } = outcome as { answer: Answer };
            expect(parseAnswer(answer)).toEqual(answer);
            if (!isValid(request)) {
              // Never asked: cancelled, with the invalid_request error that says what is wrong.
              expect(asked).not.toHaveBeenCalled();
              expect(answer).toMatchObject({ ok: false, reason: 'cancelled' });
              const cause = answerCause(answer);
              expect(WaitforError.isInstance(cause) && cause.code).toBe('invalid_request');
              return;
            }
            expect(answer.id).toBe(request.id);
            if (answer.ok) expect(inner.does).toBe('accepts');
            if (inner.does === 'never' && abortAfter === null) {
              expect(answer).toMatchObject({ ok: false, reason: 'expired' });
            }
          } finally {
            vi.useRealTimers();
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
