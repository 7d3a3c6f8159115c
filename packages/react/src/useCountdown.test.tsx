import { act, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApprovalView, localize, useCountdown } from '@waitfor/react';
import { ask, renderWithInbox } from './__tests__/harness.js';

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('useCountdown', () => {
  it('ticks every second down to expired, then stops its interval', () => {
    const { result } = renderHook(() => useCountdown('2030-01-01T00:00:03Z'));
    expect(result.current).toEqual({ remainingMs: 3000, expired: false });
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current).toEqual({ remainingMs: 2000, expired: false });
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(result.current).toEqual({ remainingMs: 0, expired: true });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is undefined without a readable deadline and starts no timer', () => {
    const { result } = renderHook(() => useCountdown(undefined));
    expect(result.current).toBeUndefined();
    const garbage = renderHook(() => useCountdown('tomorrow-ish'));
    expect(garbage.result.current).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('clears its interval on unmount', () => {
    const { unmount } = renderHook(() => useCountdown('2030-01-01T01:00:00Z'));
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('formats the time left through Intl.RelativeTimeFormat, never rounding up', () => {
    const { relative } = localize();
    expect(relative(65_000)).toBe('in 65 seconds');
    expect(relative(119_000)).toBe('in 119 seconds');
    expect(relative(179_999)).toBe('in 2 minutes');
    expect(relative(3_600_000 + 61_000)).toBe('in 61 minutes');
    expect(relative(3 * 3_600_000 - 1)).toBe('in 2 hours');
    expect(relative(-5)).toBe('in 0 seconds');
  });
});

describe('a view with expiresAt', () => {
  it('shows a countdown and closes when the Request expires', async () => {
    const request = {
      id: 'soon',
      kind: 'approval',
      prompt: 'Deploy?',
      expiresAt: '2030-01-01T00:01:05Z',
      data: { origin: { server: 'ci' } },
    };
    const { inbox } = renderWithInbox(<ApprovalView request={request} />);
    const answer = ask(inbox, request);
    // The deadline's time of day in the runtime's zone, as the view formats it.
    const at = new Intl.DateTimeFormat('en', { timeStyle: 'short' }).format(
      new Date(request.expiresAt),
    );
    expect(screen.getByRole('timer').textContent).toBe(`Expires in 65 seconds, at ${at}`);
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(screen.getByRole('timer').textContent).toBe(`Expires in 60 seconds, at ${at}`);
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    await expect(answer).resolves.toMatchObject({ id: 'soon', ok: false, reason: 'expired' });
    expect(screen.getByRole('status').textContent).toBe('This question expired.');
    expect(screen.queryByRole('button', { name: /^Approve — / })).toBeNull();
  });
});
