import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Request } from '@waitfor/core';
import { RequestList } from '@waitfor/react';
import { BreakingItem, everyRequest } from './__fixtures__/everyView.js';
import { ask, renderWithInbox } from './__tests__/harness.js';

const question = (id: string, prompt: string, server = 'Travel Desk'): Request => ({
  id,
  kind: 'approval',
  prompt,
  data: { origin: { server } },
});

const announcer = () => document.querySelector('.waitfor-announcer');

describe('accessibility of the list', () => {
  it('a polite live region announces each new question and who asks', () => {
    const { inbox } = renderWithInbox(<RequestList />);
    expect(announcer()?.getAttribute('aria-live')).toBe('polite');
    expect(announcer()?.textContent).toBe('');
    ask(inbox, question('one', 'Which region?'));
    expect(announcer()?.textContent).toBe('New question from Travel Desk: Which region?');
    // The same words again (a re-ask) come as a new node, so a screen reader reads them again.
    const first = announcer()?.firstChild;
    inbox.answer({ id: 'one', ok: false, reason: 'declined' });
    ask(inbox, question('two', 'Which region?'));
    expect(announcer()?.textContent).toBe('New question from Travel Desk: Which region?');
    expect(announcer()?.firstChild).not.toBe(first);
  });

  it('after answering, focus moves to the next question, then to the empty note — never <body>', async () => {
    const user = userEvent.setup();
    const { inbox } = renderWithInbox(<RequestList />);
    ask(inbox, question('one', 'First?'));
    ask(inbox, question('two', 'Second?'));
    ask(inbox, question('three', 'Third?'));
    await user.click(screen.getByRole('button', { name: 'Approve — Second? (Travel Desk)' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Third?' }));
    // The last one answered: focus goes to the one before it.
    await user.keyboard('{Tab}{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'First?' }));
    await user.click(screen.getByRole('button', { name: 'Decline — First? (Travel Desk)' }));
    expect(document.activeElement).toBe(document.querySelector('.waitfor-empty'));
    expect(document.activeElement?.textContent).toBe('No open requests.');
  });

  it('focus moves to the next question even when its view failed and shows the error instead', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { inbox } = renderWithInbox(<RequestList item={BreakingItem} />);
      ask(inbox, question('one', 'First?'));
      ask(inbox, question('broken', 'Broken?'));
      await user.click(screen.getByRole('button', { name: 'Approve — First? (Travel Desk)' }));
      expect(document.activeElement?.textContent).toBe('Broken?');
      expect(document.activeElement?.classList.contains('waitfor-prompt')).toBe(true);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('focus stays where the person put it when a question leaves while they are elsewhere', async () => {
    const user = userEvent.setup();
    const { inbox } = renderWithInbox(
      <>
        <input aria-label="Elsewhere" />
        <RequestList />
      </>,
    );
    ask(inbox, question('one', 'First?'));
    await user.click(screen.getByRole('button', { name: 'Approve — First? (Travel Desk)' }));
    ask(inbox, question('two', 'Second?'));
    await user.click(screen.getByRole('textbox', { name: 'Elsewhere' }));
    act(() => {
      inbox.answer({ id: 'two', ok: true });
    });
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Elsewhere' }));
  });

  it('Escape inside a question cancels it; Escape elsewhere does nothing', async () => {
    const user = userEvent.setup();
    const { inbox } = renderWithInbox(<RequestList />);
    const form = ask(inbox, everyRequest.form);
    const approval = ask(inbox, question('two', 'Second?'));
    await user.click(screen.getByRole('spinbutton', { name: /^Tage/ }));
    await user.type(screen.getByRole('spinbutton', { name: /^Tage/ }), '3');
    await user.keyboard('{Escape}');
    await expect(form).resolves.toEqual({ id: 'form', ok: false, reason: 'cancelled' });
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Second?' }));
    await user.click(document.body);
    await user.keyboard('{Escape}');
    expect(inbox.get('two')).toBeDefined();
    screen.getByRole('button', { name: /^Approve — Second\?/ }).focus();
    await user.keyboard('{Escape}');
    await expect(approval).resolves.toEqual({ id: 'two', ok: false, reason: 'cancelled' });
  });

  it('names each button after its question and server; prompts are headings of the chosen level', () => {
    const { inbox } = renderWithInbox(<RequestList />, undefined, { headingLevel: 3 });
    ask(inbox, question('one', 'Which region?'));
    ask(inbox, question('two', 'Which region?', 'Deploy Console'));
    ask(inbox, everyRequest.consent);
    for (const name of [
      'Approve — Which region? (Travel Desk)',
      'Decline — Which region? (Travel Desk)',
      'Cancel — Which region? (Travel Desk)',
      'Approve — Which region? (Deploy Console)',
      'Open xn--pypal-4ve.com:8443 — Anmelden? (Reisebüro)',
    ]) {
      expect(screen.getByRole('button', { name })).toBeTruthy();
    }
    expect(
      screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent),
    ).toEqual(['Which region?', 'Which region?', 'Anmelden?']);
  });

  it('a required checkbox group marks each box aria-required; an optional control does not', () => {
    const { inbox } = renderWithInbox(<RequestList />);
    ask(inbox, everyRequest.form);
    const group = screen.getByRole('group', { name: /^Kanäle/ });
    const boxes = group.querySelectorAll('input[type="checkbox"]');
    expect(boxes).toHaveLength(2);
    for (const box of boxes) expect(box.getAttribute('aria-required')).toBe('true');
    expect(
      screen.getByRole('checkbox', { name: 'Zustimmung' }).getAttribute('aria-required'),
    ).toBeNull();
    expect(screen.getByRole('combobox', { name: /^Region/ })).toHaveProperty('required', true);
  });
});
