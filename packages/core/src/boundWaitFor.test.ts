import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accept, answerCause, boundWaitFor, createInbox, WaitforError } from '@waitfor/core';
import type { AbortSignalLike, Request, WaitFor } from '@waitfor/core';

const request: Request = { id: 'r1', kind: 'question', prompt: 'Continue?' };
const never: WaitFor = () => new Promise(() => {});
const listeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

afterEach(() => {
  vi.useRealTimers();
});

describe('boundWaitFor', () => {
  it('passes the inner Answer through', async () => {
    const bound = boundWaitFor(async (incoming) => accept(incoming, { go: true }));
    await expect(bound(request)).resolves.toEqual({ id: 'r1', ok: true, data: { go: true } });
  });

  it('ends in expired after timeoutMs and aborts the inner signal', async () => {
    vi.useFakeTimers();
    let innerSignal: AbortSignalLike | undefined;
    const bound = boundWaitFor(
      (_request, context) => {
        innerSignal = context?.signal;
        return new Promise(() => {});
      },
      { timeoutMs: 1000 },
    );
    const answer = bound(request);
    await vi.advanceTimersByTimeAsync(999);
    expect(innerSignal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toEqual({ id: 'r1', ok: false, reason: 'expired' });
    expect(innerSignal?.aborted).toBe(true);
  });

  it('ends in expired at the Request expiresAt (injected clock)', async () => {
    vi.useFakeTimers();
    const start = Date.UTC(2026, 0, 1, 12);
    vi.setSystemTime(start);
    const bound = boundWaitFor(never);
    const answer = bound({ ...request, expiresAt: '2026-01-01T12:00:05Z' });
    let settled = false;
    void answer.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(4999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toMatchObject({ ok: false, reason: 'expired' });
  });

  it('answers expired at once for a Request already past expiresAt, without asking', async () => {
    const inner = vi.fn(never);
    const bound = boundWaitFor(inner, { now: () => Date.UTC(2030, 0, 1) });
    await expect(bound({ ...request, expiresAt: '2026-01-01T00:00:00Z' })).resolves.toMatchObject({
      reason: 'expired',
    });
    expect(inner).not.toHaveBeenCalled();
  });

  it('waits past the 24.8-day setTimeout limit instead of firing at once', async () => {
    vi.useFakeTimers();
    const days = 40;
    const bound = boundWaitFor(never, { timeoutMs: days * 86_400_000 });
    let settled = false;
    const answer = bound(request).then((value) => ((settled = true), value));
    await vi.advanceTimersByTimeAsync(30 * 86_400_000);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(10 * 86_400_000);
    await expect(answer).resolves.toMatchObject({ reason: 'expired' });
  });

  it('ends in cancelled on abort, keeps the reason as cause, and removes its listener', async () => {
    const controller = new AbortController();
    let innerSignal: AbortSignalLike | undefined;
    const bound = boundWaitFor((_request, context) => {
      innerSignal = context?.signal;
      return new Promise(() => {});
    });
    const answer = bound(request, { signal: controller.signal });
    expect(listeners(controller.signal)).toBe(1);
    controller.abort(new Error('user left'));
    const settled = await answer;
    expect(settled).toEqual({ id: 'r1', ok: false, reason: 'cancelled' });
    expect((answerCause(settled) as Error).message).toBe('user left');
    expect(innerSignal?.aborted).toBe(true);
    expect(listeners(controller.signal)).toBe(0);
  });

  it('answers cancelled at once for an already aborted signal', async () => {
    const inner = vi.fn(never);
    const answer = await boundWaitFor(inner)(request, { signal: AbortSignal.abort('gone') });
    expect(answer).toMatchObject({ reason: 'cancelled' });
    expect(answerCause(answer)).toBe('gone');
    expect(inner).not.toHaveBeenCalled();
  });

  it('turns a throw or a rejection into a cancelled Answer with the error as cause', async () => {
    const error = new Error('host crashed');
    const thrown = await boundWaitFor(() => {
      throw error;
    })(request);
    expect(thrown).toEqual({ id: 'r1', ok: false, reason: 'cancelled' });
    expect(answerCause(thrown)).toBe(error);
    const rejected = await boundWaitFor(() => Promise.reject(error))(request);
    expect(answerCause(rejected)).toBe(error);
  });

  it('turns an Answer for another id into cancelled with an answer_mismatch cause', async () => {
    const answer = await boundWaitFor(async () => accept('someone-else'))(request);
    expect(answer).toEqual({ id: 'r1', ok: false, reason: 'cancelled' });
    const cause = answerCause(answer);
    expect(WaitforError.isInstance(cause) && cause.code).toBe('answer_mismatch');
  });

  it('turns a malformed inner Answer into cancelled with an invalid_answer cause', async () => {
    const answer = await boundWaitFor(async () => ({ id: 'r1', ok: 'yes' }) as never)(request);
    const cause = answerCause(answer);
    expect(WaitforError.isInstance(cause) && cause.code).toBe('invalid_answer');
  });

  it('ends in expired at once, without asking, when the injected clock gives NaN', async () => {
    const inner = vi.fn(never);
    const bound = boundWaitFor(inner, { timeoutMs: 1000, now: () => Number.NaN });
    await expect(bound(request)).resolves.toEqual({ id: 'r1', ok: false, reason: 'expired' });
    expect(inner).not.toHaveBeenCalled();
  });

  it('never asks a malformed Request, even when the inner waitFor would accept it', async () => {
    const inner = vi.fn(async (incoming: Request) => accept(incoming));
    const answer = await boundWaitFor(inner)({ ...request, data: { origin: { server: '' } } });
    expect(answer).toMatchObject({ id: 'r1', ok: false, reason: 'cancelled' });
    const cause = answerCause(answer);
    expect(WaitforError.isInstance(cause) && cause.path).toBe('data.origin.server');
    expect(inner).not.toHaveBeenCalled();
  });

  it('never rejects, even for a malformed Request', async () => {
    const answer = await boundWaitFor(createInbox().waitFor)({ id: 'x', kind: 'input' } as never);
    expect(answer).toMatchObject({ id: 'x', ok: false, reason: 'cancelled' });
    const nothing = await boundWaitFor(never)(null as never);
    expect(nothing).toMatchObject({ ok: false, reason: 'cancelled' });
  });

  it('ignores an inner Answer that arrives after the bound ended', async () => {
    vi.useFakeTimers();
    let answerLate: (() => void) | undefined;
    const bound = boundWaitFor(
      (incoming) => new Promise((resolve) => (answerLate = () => resolve(accept(incoming)))),
      { timeoutMs: 10 },
    );
    const answer = bound(request);
    await vi.advanceTimersByTimeAsync(10);
    answerLate?.();
    await expect(answer).resolves.toMatchObject({ reason: 'expired' });
  });

  it('refuses a bad timeoutMs with a typed error', () => {
    for (const timeoutMs of [-1, Number.NaN]) {
      expect(() => boundWaitFor(never, { timeoutMs })).toThrowError(
        expect.objectContaining({ code: 'invalid_options', path: 'timeoutMs' }),
      );
    }
  });

  // Before: a malformed expiresAt gave a NaN deadline, so neither it nor timeoutMs set a timer.
  it.each([undefined, 1000])(
    'ends a Request with a malformed expiresAt cancelled at once, without asking (timeoutMs %s)',
    async (timeoutMs) => {
      const inner = vi.fn(never);
      const answer = await boundWaitFor(inner, { timeoutMs })({
        ...request,
        expiresAt: 'tomorrow',
      });
      expect(answer).toEqual({ id: 'r1', ok: false, reason: 'cancelled' });
      const cause = answerCause(answer);
      expect(WaitforError.isInstance(cause) && [cause.code, cause.path]).toEqual([
        'invalid_request',
        'expiresAt',
      ]);
      expect(inner).not.toHaveBeenCalled();
    },
  );
});
