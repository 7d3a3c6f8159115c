import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accept, answerCause, cancel, createInbox, decline, WaitforError } from '@waitfor/core';
import type { Request } from '@waitfor/core';

const ask = (id: string, extra: Partial<Request> = {}): Request => ({
  id,
  kind: 'input',
  prompt: `${id}?`,
  ...extra,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createInbox', () => {
  it('lists open Requests and settles the one an Answer names', async () => {
    const inbox = createInbox();
    const first = inbox.waitFor(ask('a'));
    const second = inbox.waitFor(ask('b'));
    expect(inbox.getSnapshot().map((request) => request.id)).toEqual(['a', 'b']);
    expect(inbox.get('b')).toEqual(ask('b'));
    expect(inbox.answer(accept('b', { name: 'Ada' }))).toBe(true);
    await expect(second).resolves.toEqual({ id: 'b', ok: true, data: { name: 'Ada' } });
    expect(inbox.getSnapshot().map((request) => request.id)).toEqual(['a']);
    expect(inbox.get('b')).toBeUndefined();
    expect(inbox.answer(decline('a'))).toBe(true);
    await expect(first).resolves.toEqual({ id: 'a', ok: false, reason: 'declined' });
    expect(inbox.getSnapshot()).toEqual([]);
  });

  it('keeps the snapshot identity until something changes, and never mutates a snapshot', () => {
    const inbox = createInbox();
    const empty = inbox.getSnapshot();
    expect(inbox.getSnapshot()).toBe(empty);
    void inbox.waitFor(ask('a'));
    const one = inbox.getSnapshot();
    expect(one).not.toBe(empty);
    expect(empty).toEqual([]);
    expect(inbox.getSnapshot()).toBe(one);
    expect(inbox.answer(accept('nobody'))).toBe(false);
    expect(inbox.getSnapshot()).toBe(one);
    inbox.answer(accept('a'));
    const after = inbox.getSnapshot();
    expect(after).not.toBe(one);
    expect(one.map((request) => request.id)).toEqual(['a']);
    expect(after).toEqual([]);
  });

  it('lets the first answer win and reports later ones as not settling anything', async () => {
    const inbox = createInbox();
    const answer = inbox.waitFor(ask('a'));
    expect(inbox.answer(accept('a', { n: 1 }))).toBe(true);
    expect(inbox.answer(accept('a', { n: 2 }))).toBe(false);
    expect(inbox.cancel('a')).toBe(false);
    await expect(answer).resolves.toEqual({ id: 'a', ok: true, data: { n: 1 } });
  });

  it('notifies subscribers on add and settle, and unsubscribes cleanly', async () => {
    const inbox = createInbox();
    const listener = vi.fn();
    const unsubscribe = inbox.subscribe(listener);
    const answer = inbox.waitFor(ask('a'));
    expect(listener).toHaveBeenCalledTimes(1);
    inbox.cancel('a', 'closed');
    expect(listener).toHaveBeenCalledTimes(2);
    const settled = await answer;
    expect(settled).toEqual({ id: 'a', ok: false, reason: 'cancelled' });
    expect(answerCause(settled)).toBe('closed');
    unsubscribe();
    void inbox.waitFor(ask('b'));
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('a throwing listener stops neither the next listener nor the change, and is reported', async () => {
    const reported: WaitforError[] = [];
    const inbox = createInbox({ onError: (error) => reported.push(error) });
    const failure = new Error('a broken view');
    const seen: number[] = [];
    inbox.subscribe(() => {
      throw failure;
    });
    inbox.subscribe(() => seen.push(inbox.getSnapshot().length));
    const answer = inbox.waitFor(ask('a'));
    expect(seen).toEqual([1]);
    expect(inbox.answer(accept('a', { n: 1 }))).toBe(true);
    await expect(answer).resolves.toEqual({ id: 'a', ok: true, data: { n: 1 } });
    expect(seen).toEqual([1, 0]);
    expect(reported.map((error) => [error.code, error.cause])).toEqual([
      ['listener_failed', failure],
      ['listener_failed', failure],
    ]);
  });

  it('submit: the same first-answer-wins contract as answer, as a promise', async () => {
    const inbox = createInbox();
    const answer = inbox.waitFor(ask('a'));
    await expect(inbox.submit(accept('a', { n: 1 }))).resolves.toBe(true);
    await expect(answer).resolves.toEqual({ id: 'a', ok: true, data: { n: 1 } });
    // Already answered, or never asked: false, nothing changes.
    await expect(inbox.submit(accept('a', { n: 2 }))).resolves.toBe(false);
    await expect(inbox.submit(decline('nobody'))).resolves.toBe(false);
    // A malformed Answer rejects (it is never a silent false).
    const refused = await inbox.submit({ id: 7 } as never).catch((error: unknown) => error);
    expect(WaitforError.isInstance(refused) && refused.code).toBe('invalid_answer');
  });

  it('submit after expiresAt is false and the Request ends as expired', async () => {
    let clock = Date.parse('2030-01-01T00:00:00Z');
    const inbox = createInbox({ now: () => clock });
    const answer = inbox.waitFor(ask('a', { expiresAt: '2030-01-01T00:01:00Z' }));
    clock += 120_000;
    await expect(inbox.submit(accept('a'))).resolves.toBe(false);
    await expect(answer).resolves.toEqual({ id: 'a', ok: false, reason: 'expired' });
  });

  it('lets a listener unsubscribe itself and another listener while being notified', () => {
    const inbox = createInbox();
    const calls: string[] = [];
    const stopFirst = inbox.subscribe(() => {
      calls.push('first');
      stopFirst();
      stopSecond();
    });
    // Removed during the first notification, it still hears that one (listeners are copied first).
    const stopSecond = inbox.subscribe(() => calls.push('second'));
    void inbox.waitFor(ask('a'));
    void inbox.waitFor(ask('b'));
    expect(calls).toEqual(['first', 'second']);
  });

  it('settles as cancelled on abort and leaves no abort listener behind', async () => {
    const inbox = createInbox();
    const controller = new AbortController();
    const answer = inbox.waitFor(ask('a'), { signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort('navigated away');
    const settled = await answer;
    expect(settled).toMatchObject({ id: 'a', ok: false, reason: 'cancelled' });
    expect(answerCause(settled)).toBe('navigated away');
    expect(inbox.getSnapshot()).toEqual([]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    const answered = new AbortController();
    const other = inbox.waitFor(ask('b'), { signal: answered.signal });
    inbox.answer(accept('b'));
    await other;
    expect(getEventListeners(answered.signal, 'abort')).toHaveLength(0);
  });

  it('resolves an already aborted or already expired Request at once without listing it', async () => {
    const inbox = createInbox({ now: () => Date.UTC(2030, 0, 1) });
    const listener = vi.fn();
    inbox.subscribe(listener);
    await expect(inbox.waitFor(ask('a'), { signal: AbortSignal.abort() })).resolves.toMatchObject({
      reason: 'cancelled',
    });
    await expect(
      inbox.waitFor(ask('b', { expiresAt: '2029-12-31T23:59:59Z' })),
    ).resolves.toMatchObject({
      reason: 'expired',
    });
    expect(listener).not.toHaveBeenCalled();
    expect(inbox.getSnapshot()).toEqual([]);
  });

  it('settles as expired at expiresAt', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2026, 0, 1));
    const inbox = createInbox();
    const answer = inbox.waitFor(ask('a', { expiresAt: '2026-01-01T00:01:00Z' }));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(inbox.get('a')).toBeDefined();
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toEqual({ id: 'a', ok: false, reason: 'expired' });
    expect(inbox.getSnapshot()).toEqual([]);
  });

  it('refuses a late answer: the Request ends expired and answer() says false', async () => {
    let now = Date.UTC(2026, 0, 1);
    const inbox = createInbox({ now: () => now });
    const answer = inbox.waitFor(ask('a', { expiresAt: '2026-01-01T00:00:10Z' }));
    now += 10_000; // the clock passed expiresAt before the timer ran
    expect(inbox.answer(accept('a'))).toBe(false);
    await expect(answer).resolves.toMatchObject({ reason: 'expired' });
  });

  it('rejects a duplicate open id and a malformed Request with typed errors', async () => {
    const inbox = createInbox();
    const first = inbox.waitFor(ask('a'));
    const duplicate = await inbox.waitFor(ask('a')).catch((error: unknown) => error);
    expect(WaitforError.isInstance(duplicate) && duplicate.code).toBe('duplicate_request');
    const malformed = await inbox.waitFor({ id: 'b' } as never).catch((error: unknown) => error);
    expect(WaitforError.isInstance(malformed) && malformed.code).toBe('invalid_request');
    expect(inbox.getSnapshot().map((request) => request.id)).toEqual(['a']);
    inbox.answer(accept('a'));
    await first;
    // Once settled, the id may be asked again.
    const again = inbox.waitFor(ask('a'));
    inbox.answer(cancel('a'));
    await expect(again).resolves.toMatchObject({ reason: 'cancelled' });
  });

  it('throws a typed error for an invalid answer and leaves the Request open', () => {
    const inbox = createInbox();
    void inbox.waitFor(ask('a'));
    expect(() => inbox.answer({ id: 'a', ok: 'yes' } as never)).toThrowError(
      expect.objectContaining({ code: 'invalid_answer', path: 'ok' }),
    );
    // A refusal must say why, an acceptance must not.
    for (const answer of [
      { id: 'a', ok: false },
      { id: 'a', ok: true, reason: 'declined' },
    ]) {
      expect(() => inbox.answer(answer)).toThrowError(
        expect.objectContaining({ code: 'invalid_answer', path: 'reason' }),
      );
    }
    expect(inbox.get('a')).toBeDefined();
  });
});
