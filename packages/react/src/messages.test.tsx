import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createInbox } from '@waitfor/core';
import { defaultMessages, ElicitationForm, RequestList, WaitforProvider } from '@waitfor/react';
import type { WaitforMessageKey, WaitforMessages } from '@waitfor/react';
import { EveryView, everyRequest, everyViewInbox } from './__fixtures__/everyView.js';
import { ask, renderWithInbox } from './__tests__/harness.js';

const keys = Object.keys(defaultMessages) as WaitforMessageKey[];

// Every message marked ⟦n:…⟧ by its position (a key's name could hold an English word), keeping
// its {marks}, so the values still show.
const mark = (key: WaitforMessageKey) => `⟦${keys.indexOf(key)}:`;
const marked = Object.fromEntries(
  keys.map((key) => [
    key,
    `${mark(key)}${(defaultMessages[key].match(/\{\w+\}/g) ?? []).join('')}⟧`,
  ]),
) as WaitforMessages;

// The literal English words of every default message (the parts between its {marks}).
const englishFragments = keys.flatMap((key) =>
  defaultMessages[key]
    .split(/\{\w+\}/)
    .map((part) => part.trim())
    .filter((part) => /[a-z]{2}/i.test(part))
    .map((part) => ({ key, part })),
);

function shownText(): string {
  const attributes = [...document.querySelectorAll('*')].flatMap((element) =>
    [...element.attributes]
      .filter((attribute) => /^(aria-|title$|placeholder$|alt$)/.test(attribute.name))
      .map((attribute) => attribute.value),
  );
  return [document.body.textContent ?? '', ...attributes].join('\n');
}

describe('messages', () => {
  it('a marked messages object replaces every English text in every view, text and ARIA alike', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const inbox = everyViewInbox();
    renderWithInbox(<EveryView inbox={inbox} broken messages={marked} locale="de" />, inbox);
    // After the first render: an arrival for the live region, and a view that fails to render.
    ask(inbox, { id: 'broken', kind: 'approval', prompt: 'Kaputt?' });
    act(() => {
      void inbox.waitFor({ id: 'later', kind: 'approval', prompt: 'Später?' });
      void inbox.waitFor({ id: 'later2', kind: 'approval', prompt: 'Noch später?' });
    });
    // Edit mode shows the sampling view's labelled fields.
    await user.click(document.querySelector<HTMLElement>('.waitfor-sampling .waitfor-edit')!);
    const text = shownText();
    for (const key of keys) {
      if (key === 'arrived') continue; // several arrived at once: arrivedMany is shown instead
      expect(text, `message "${key}" is shown`).toContain(mark(key));
    }
    const left = englishFragments.filter(({ part }) => text.includes(part));
    expect(left).toEqual([]);
    vi.restoreAllMocks();
  });

  it('the single-arrival announcement is translated too', () => {
    const { inbox } = renderWithInbox(<RequestList />, createInbox(), { messages: marked });
    ask(inbox, { id: 'one', kind: 'approval', prompt: 'Eins?', data: { origin: { server: 'S' } } });
    expect(document.querySelector('.waitfor-announcer')?.textContent).toBe(
      `${mark('arrived')}SEins?⟧`,
    );
  });

  it('a partial messages object replaces only its keys; the rest stay English', () => {
    const { inbox } = renderWithInbox(<RequestList />, createInbox(), {
      messages: { approve: 'Freigeben', decline: undefined },
    });
    ask(inbox, { id: 'one', kind: 'approval', prompt: 'Eins?' });
    expect(screen.getByRole('button', { name: 'Freigeben — Eins? (Unknown server)' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Decline — Eins? (Unknown server)' })).toBeTruthy();
  });

  it('the messages prop is typed: a misspelt key or a value that is not text does not compile', () => {
    const inbox = createInbox();
    const misspelt = (
      // @ts-expect-error -- "acept" is no message
      <WaitforProvider inbox={inbox} messages={{ acept: 'Annehmen' }} />
    );
    const notText = (
      // @ts-expect-error -- a message is text
      <WaitforProvider inbox={inbox} messages={{ accept: 1 }} />
    );
    expect([misspelt, notText]).toHaveLength(2);
  });

  it('a host translates core validation messages per field with translateFieldError', async () => {
    const user = userEvent.setup();
    const translateFieldError = vi.fn((message: string) => `Übersetzt: ${message}`);
    const { inbox } = renderWithInbox(
      <ElicitationForm request={everyRequest.reask} />,
      createInbox(),
      { translateFieldError },
    );
    ask(inbox, everyRequest.reask);
    expect(screen.getByText('Übersetzt: Zu wenige')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Accept — / }));
    const region = within(document.querySelector('[data-waitfor-field="region"]') as HTMLElement);
    expect(region.getByRole('alert').textContent).toMatch(/^Übersetzt: /);
    expect(translateFieldError).toHaveBeenCalledWith(
      expect.any(String),
      expect.objectContaining({ name: 'region' }),
    );
  });
});

describe('Intl formatting in the provider locale', () => {
  it('numbers, times and the time left follow locale="de"', () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    try {
      const expiresAt = '2030-01-01T00:01:05Z';
      const inbox = createInbox();
      // The default wording of a re-ask names no number; a translation may ({attempt}).
      const messages = { attempt: 'Versuch {attempt}' };
      renderWithInbox(<EveryView inbox={inbox} locale="de" messages={messages} />, inbox);
      ask(inbox, { ...everyRequest.sampling, id: 's2' });
      ask(inbox, { id: 'soon', kind: 'approval', prompt: 'Bald?', expiresAt });
      ask(inbox, {
        ...everyRequest.reask,
        id: 'r2',
        data: { ...everyRequest.reask.data, attempt: 1234 },
      });
      const at = new Intl.DateTimeFormat('de', { timeStyle: 'short' }).format(new Date(expiresAt));
      const timers = screen.getAllByRole('timer').map((timer) => timer.textContent);
      expect(timers).toContain(`Expires in 65 Sekunden, at ${at}`);
      act(() => {
        vi.advanceTimersByTime(5000);
      });
      expect(screen.getAllByRole('timer').map((timer) => timer.textContent)).toContain(
        `Expires in 60 Sekunden, at ${at}`,
      );
      const text = document.body.textContent ?? '';
      expect(text).toContain('Versuch 1.234');
      expect(text).toContain('At most 1.234 tokens');
      // German puts a (no-break) space before the percent sign.
      expect(text).toMatch(/Cost 25\s%, speed 50\s%, intelligence –/);
      expect(text).toContain('3 of 10');
    } finally {
      vi.useRealTimers();
    }
  });
});
