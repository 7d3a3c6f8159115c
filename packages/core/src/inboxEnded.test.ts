import { afterEach, describe, expect, it, vi } from 'vitest';
import { accept, createInbox, decline } from '@waitfor/core';
import type { Request } from '@waitfor/core';

const ask = (id: string, extra: Partial<Request> = {}): Request => ({
  id,
  kind: 'approval',
  prompt: `${id}?`,
  ...extra,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('inbox.ended: how a question that left the inbox ended', () => {
  it('says answered for an answer (a decline too), cancelled for cancel() and an abort, with when', async () => {
    let now = 1_000;
    const inbox = createInbox({ now: () => now });
    const controller = new AbortController();
    for (const id of ['accepted', 'declined', 'cancelled', 'open']) void inbox.waitFor(ask(id));
    void inbox.waitFor(ask('aborted'), { signal: controller.signal });
    expect(inbox.ended('accepted')).toBeUndefined();
    now = 2_000;
    inbox.answer(accept('accepted'));
    inbox.answer(decline('declined'));
    inbox.cancel('cancelled');
    controller.abort();
    expect(inbox.ended('accepted')).toEqual({ reason: 'answered', at: 2_000 });
    expect(inbox.ended('declined')).toEqual({ reason: 'answered', at: 2_000 });
    expect(inbox.ended('cancelled')).toEqual({ reason: 'cancelled', at: 2_000 });
    expect(inbox.ended('aborted')).toEqual({ reason: 'cancelled', at: 2_000 });
    // Still open, and never asked: nothing to say.
    expect(inbox.ended('open')).toBeUndefined();
    expect(inbox.ended('unknown')).toBeUndefined();
    // The same object each time, as a React store read needs.
    expect(inbox.ended('accepted')).toBe(inbox.ended('accepted'));
  });

  it('says expired at expiresAt (the timer) and for a late answer (the clock passed first)', async () => {
    vi.useFakeTimers({ now: Date.UTC(2030, 0, 1) });
    const inbox = createInbox();
    const timed = inbox.waitFor(ask('timed', { expiresAt: '2030-01-01T00:00:10Z' }));
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(timed).resolves.toMatchObject({ reason: 'expired' });
    expect(inbox.ended('timed')).toEqual({ reason: 'expired', at: Date.UTC(2030, 0, 1, 0, 0, 10) });

    let now = Date.UTC(2031, 0, 1);
    const clocked = createInbox({ now: () => now });
    void clocked.waitFor(ask('late', { expiresAt: '2031-01-01T00:00:10Z' }));
    now += 10_000;
    expect(clocked.answer(accept('late'))).toBe(false);
    expect(clocked.ended('late')?.reason).toBe('expired');
  });

  it('forgets after ten minutes on the inbox clock, and keeps the last 1,024 only', () => {
    let now = 0;
    const inbox = createInbox({ now: () => now });
    void inbox.waitFor(ask('first'));
    inbox.answer(accept('first'));
    now = 10 * 60_000 - 1;
    expect(inbox.ended('first')?.reason).toBe('answered');
    now += 1;
    expect(inbox.ended('first')).toBeUndefined();

    for (let i = 0; i <= 1024; i++) {
      void inbox.waitFor(ask(`q${i}`));
      inbox.cancel(`q${i}`);
    }
    expect(inbox.ended('q0')).toBeUndefined();
    expect(inbox.ended('q1')?.reason).toBe('cancelled');
    expect(inbox.ended('q1024')?.reason).toBe('cancelled');
  });

  it('says nothing for an id asked again: it is open, then ends anew', () => {
    let now = 0;
    const inbox = createInbox({ now: () => now });
    void inbox.waitFor(ask('a'));
    inbox.cancel('a');
    void inbox.waitFor(ask('a'));
    expect(inbox.ended('a')).toBeUndefined();
    now = 5;
    inbox.answer(accept('a'));
    expect(inbox.ended('a')).toEqual({ reason: 'answered', at: 5 });
  });

  it('keeps its memory per inbox: another inbox knows nothing of it', () => {
    const one = createInbox();
    const other = createInbox();
    void one.waitFor(ask('a'));
    one.answer(accept('a'));
    expect(one.ended('a')?.reason).toBe('answered');
    expect(other.ended('a')).toBeUndefined();
  });
});
