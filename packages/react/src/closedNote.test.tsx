import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createInbox } from '@waitfor/core';
import type { Ended, Inbox, Request } from '@waitfor/core';
import { ApprovalView, RequestList } from '@waitfor/react';
import { ask, renderWithInbox, requestFrom } from './__tests__/harness.js';

const booking: Request = requestFrom('Travel Desk', {
  id: 'q',
  kind: 'approval',
  prompt: 'Book it?',
});

/** The closed note's words; it is a status message, announced as the other status lines are. */
const note = () => {
  const element = document.querySelector('.waitfor-closed');
  expect(element?.getAttribute('role')).toBe('status');
  return element?.textContent;
};

/** An inbox that says why answers failed, as one that sends them elsewhere does. */
function failingWith(failure: unknown): Inbox {
  const inbox = createInbox();
  return { ...inbox, getAnswerError: (id: string) => (id === 'q' ? failure : undefined) } as Inbox;
}

describe('a lost answer says what happened first (the failure of an inbox that sends answers elsewhere)', () => {
  it.each([
    [
      { ended: 'answered', answeredBy: 'Ada' },
      'Answered elsewhere by Ada: this request is no longer open.',
    ],
    [{ ended: 'answered' }, 'Answered elsewhere: this request is no longer open.'],
    // An older server: a 409 without a reason is an answer that came second.
    [{}, 'Answered elsewhere: this request is no longer open.'],
    [{ ended: 'expired' }, 'This question expired.'],
    [{ ended: 'cancelled' }, 'The asker no longer needs this answer.'],
    // A reason this version does not know is not shown as one.
    [{ ended: 'exploded' }, 'Answered elsewhere: this request is no longer open.'],
  ])('%o: "%s", announced as a status', (extra, words) => {
    const inbox = failingWith({ code: 'conflict', message: 'Too late.', ...extra });
    renderWithInbox(<RequestList />, inbox);
    void ask(inbox, booking);
    act(() => {
      inbox.answer({ id: 'q', ok: true });
    });
    expect(note()).toBe(words);
    expect(screen.getByRole('button', { name: 'Dismiss — Book it? (Travel Desk)' })).toBeTruthy();
  });
});

describe("a view closed without a failure says only what the inbox knows (core's ended)", () => {
  it('another view answered it: answered elsewhere', () => {
    const { inbox } = renderWithInbox(<ApprovalView request={booking} />);
    void ask(inbox, booking);
    act(() => {
      inbox.answer({ id: 'q', ok: false, reason: 'declined' });
    });
    expect(note()).toBe('Answered elsewhere: this request is no longer open.');
  });

  it('the asker cancelled it, or its wait was aborted: the asker no longer needs it', () => {
    const { inbox } = renderWithInbox(<ApprovalView request={booking} />);
    const controller = new AbortController();
    void ask(inbox, booking, { signal: controller.signal });
    act(() => controller.abort());
    expect(note()).toBe('The asker no longer needs this answer.');
  });

  it('its time ran out: expired (on the inbox clock)', () => {
    let now = Date.UTC(2030, 0, 1);
    const inbox = createInbox({ now: () => now });
    const late = { ...booking, expiresAt: '2030-01-01T00:00:10Z' };
    renderWithInbox(<ApprovalView request={late} />, inbox);
    void ask(inbox, late);
    now += 10_000;
    act(() => {
      // A late answer (from anywhere) ends it as expired.
      inbox.answer({ id: 'q', ok: true });
    });
    expect(note()).toBe('This question expired.');
  });

  it('an inbox that cannot say: "no longer open", never "answered elsewhere"', () => {
    const memory = createInbox();
    const { ended: _ended, ...inbox } = memory;
    renderWithInbox(<ApprovalView request={booking} />, inbox);
    void ask(inbox, booking);
    act(() => {
      memory.cancel('q');
    });
    expect(note()).toBe('This question is no longer open.');
    expect(screen.queryByText(/Answered elsewhere/)).toBeNull();
  });

  it('an inbox that answers with a promise (a store) is asked once; its answer is shown when it comes', async () => {
    let resolve!: (ended: Ended) => void;
    let asked = 0;
    const memory = createInbox();
    const inbox: Inbox = {
      ...memory,
      ended: () => {
        asked++;
        return new Promise<Ended>((done) => (resolve = done));
      },
    };
    void ask(inbox, booking);
    renderWithInbox(<ApprovalView request={booking} />, inbox);
    expect(asked).toBe(0); // open: nothing to ask
    act(() => {
      memory.cancel('q');
    });
    expect(note()).toBe('This question is no longer open.');
    await act(async () => resolve({ reason: 'expired', at: 1 }));
    expect(note()).toBe('This question expired.');
    expect(asked).toBe(1);
  });
});
