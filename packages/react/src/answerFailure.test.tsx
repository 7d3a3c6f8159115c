import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createInbox } from '@waitfor/core';
import type { Inbox } from '@waitfor/core';
import { RequestList } from '@waitfor/react';
import { ask, renderWithInbox, requestFrom } from './__tests__/harness.js';

/** An inbox that says why answers failed, as one that sends them elsewhere does. */
function reportingInbox(): { inbox: Inbox; fail(id: string, failure: unknown): void } {
  const inbox = createInbox();
  const failures = new Map<string, unknown>();
  return {
    inbox: { ...inbox, getAnswerError: (id: string) => failures.get(id) } as Inbox,
    fail: (id, failure) => failures.set(id, failure),
  };
}

describe('an answer that lost the race', () => {
  it('says who answered first, where the inbox says; Dismiss takes the note away', () => {
    const { inbox, fail } = reportingInbox();
    renderWithInbox(<RequestList />, inbox);
    void ask(inbox, requestFrom('Travel Desk', { id: 'q', kind: 'approval', prompt: 'Book it?' }));
    fail('q', { code: 'conflict', message: 'Already answered.', answeredBy: 'Ada' });
    act(() => {
      inbox.answer({ id: 'q', ok: true });
    });
    expect(
      screen.getByText('Answered elsewhere by Ada: this request is no longer open.'),
    ).toBeTruthy();
    act(() => {
      screen.getByRole('button', { name: 'Dismiss — Book it? (Travel Desk)' }).click();
    });
    expect(screen.queryByText(/Answered elsewhere/)).toBeNull();
  });

  it('a question that left without a failure (answered here, or by a call ending) just leaves', () => {
    const { inbox } = reportingInbox();
    renderWithInbox(<RequestList />, inbox);
    void ask(inbox, requestFrom('Travel Desk', { id: 'q', kind: 'approval', prompt: 'Book it?' }));
    act(() => {
      inbox.answer({ id: 'q', ok: true });
    });
    expect(screen.queryByText(/Answered elsewhere/)).toBeNull();
    expect(screen.getByText('No open requests.')).toBeTruthy();
  });
});
