import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createInbox } from '@waitfor/core';
import type { Inbox, Request } from '@waitfor/core';
import {
  ApprovalView,
  ElicitationForm,
  RequestList,
  RequestListItem,
  useRequest,
} from '@waitfor/react';
import { ask, renderWithInbox } from './__tests__/harness.js';

const question = (id: string, server = 'alpha'): Request => ({
  id,
  kind: 'approval',
  prompt: `Approve ${id}?`,
  data: { origin: { server } },
});

describe('RequestList', () => {
  it('lists every open Request with the view its kind needs, and empties when answered', async () => {
    const user = userEvent.setup();
    const { inbox } = renderWithInbox(<RequestList />);
    expect(screen.getByText('No open requests.')).toBeTruthy();
    const approval = ask(inbox, question('one', 'alpha'));
    ask(inbox, { id: 'two', kind: 'authorization', prompt: 'Sign in', url: 'https://a.example/' });
    ask(inbox, {
      id: 'three',
      kind: 'input',
      prompt: 'Name?',
      data: {
        schema: { type: 'object', properties: { name: { type: 'string' } } },
        origin: { server: 'beta' },
      },
    });
    const items = within(screen.getByRole('list', { name: 'Open requests' })).getAllByRole(
      'listitem',
    );
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByRole('button', { name: /^Approve — / })).toBeTruthy();
    expect(within(items[1]!).getByRole('button', { name: /^Open a\.example — / })).toBeTruthy();
    expect(within(items[1]!).getByText('Unknown server')).toBeTruthy();
    expect(within(items[2]!).getByRole('textbox', { name: 'name' })).toBeTruthy();
    expect(within(items[2]!).getByText('beta')).toBeTruthy();

    await user.click(within(items[0]!).getByRole('button', { name: /^Approve — / }));
    await expect(approval).resolves.toEqual({ id: 'one', ok: true });
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    act(() => {
      inbox.cancel('two');
      inbox.cancel('three');
    });
    expect(screen.getByText('No open requests.')).toBeTruthy();
  });

  it('with 1,000 open Requests, answering one re-renders only that item', () => {
    const inbox = createInbox();
    const ids = Array.from({ length: 1000 }, (_, index) => `q${index}`);
    for (const id of ids) void inbox.waitFor(question(id));
    const renders = new Map<string, number>();
    // Not memoized here: the list must do that itself.
    function CountingItem({ id }: { id: string }) {
      const request = useRequest(id);
      renders.set(id, (renders.get(id) ?? 0) + 1);
      return request ? <p data-item={id}>{request.prompt}</p> : null;
    }
    const rendered = renderWithInbox(<RequestList item={CountingItem} />, inbox);
    const { container } = rendered;
    expect(container.querySelectorAll('[data-item]')).toHaveLength(1000);
    expect([...renders.values()].every((count) => count === 1)).toBe(true);

    act(() => {
      inbox.answer({ id: 'q123', ok: false, reason: 'declined' });
    });
    expect(container.querySelectorAll('[data-item]')).toHaveLength(999);
    expect(container.querySelector('[data-item="q123"]')).toBeNull();
    expect(ids.filter((id) => id !== 'q123' && renders.get(id) !== 1)).toEqual([]);

    // A new Request arriving renders only the new item.
    act(() => {
      void inbox.waitFor(question('late'));
    });
    expect(ids.filter((id) => id !== 'q123' && renders.get(id) !== 1)).toEqual([]);
    expect(renders.get('late')).toBe(1);
  }, 30_000);
});

describe('a view whose Request is settled elsewhere', () => {
  it.each([
    [
      'another tab answers',
      (inbox: Inbox) => inbox.answer({ id: 'x', ok: true }),
      'Answered elsewhere: this request is no longer open.',
    ],
    [
      'the host cancels it',
      (inbox: Inbox) => inbox.cancel('x'),
      'The asker no longer needs this answer.',
    ],
  ])('closes when %s, saying so', async (_label, settle, words) => {
    const request = question('x');
    const { inbox } = renderWithInbox(<ApprovalView request={request} />);
    const answer = ask(inbox, request);
    expect(screen.getByRole('button', { name: /^Approve — / })).toBeTruthy();
    act(() => {
      settle(inbox);
    });
    await answer;
    expect(screen.getByRole('status').textContent).toBe(words);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('closes a form when the caller aborts, keeping nothing clickable', async () => {
    const controller = new AbortController();
    const request: Request = {
      id: 'aborted',
      kind: 'input',
      prompt: 'Name?',
      data: { schema: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    const { inbox } = renderWithInbox(<ElicitationForm request={request} />);
    const answer = ask(inbox, request, { signal: controller.signal });
    expect(screen.getByRole('textbox')).toBeTruthy();
    act(() => controller.abort());
    await expect(answer).resolves.toMatchObject({ ok: false, reason: 'cancelled' });
    expect(screen.queryByRole('textbox')).toBeNull();
    // Not "answered elsewhere": nobody answered it, the asker stopped waiting.
    expect(screen.getByRole('status').textContent).toBe('The asker no longer needs this answer.');
  });
});

describe('one hostile question never takes the others down', () => {
  // JSON.parse, as a server's message arrives: "__proto__" is then an own key of the schema.
  const hostile: Request = {
    id: 'hostile',
    kind: 'input',
    prompt: 'Hostile?',
    data: {
      schema: JSON.parse(
        '{"type":"object","properties":{"__proto__":{"type":"string","title":"Proto"}}}',
      ) as unknown,
      origin: { server: 'evil' },
    },
  };
  const named: Request = {
    id: 'named',
    kind: 'input',
    prompt: 'Name?',
    data: {
      schema: { type: 'object', properties: { name: { type: 'string' } } },
      origin: { server: 'beta' },
    },
  };

  it('a field named "__proto__" is an ordinary field, and the other questions still answer', async () => {
    const user = userEvent.setup();
    const { inbox } = renderWithInbox(<RequestList />);
    const approval = ask(inbox, question('one', 'alpha'));
    const proto = ask(inbox, hostile);
    const name = ask(inbox, named);
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const protoField = within(items[1]!).getByRole('textbox', { name: 'Proto' });
    expect(protoField).toHaveProperty('value', '');
    expect(protoField.getAttribute('aria-invalid')).toBeNull();

    await user.click(within(items[0]!).getByRole('button', { name: /^Approve — / }));
    await expect(approval).resolves.toEqual({ id: 'one', ok: true });
    await user.type(within(items[2]!).getByRole('textbox', { name: 'name' }), 'Ada');
    await user.click(within(items[2]!).getByRole('button', { name: /^Accept — / }));
    await expect(name).resolves.toEqual({ id: 'named', ok: true, data: { name: 'Ada' } });

    await user.type(protoField, 'plain text');
    await user.click(within(items[1]!).getByRole('button', { name: /^Accept — / }));
    const answer = await proto;
    expect(answer.ok).toBe(true);
    // Sent under its own name, as an own key, not as a prototype.
    expect(Object.hasOwn(answer.data ?? {}, '__proto__')).toBe(true);
    expect(JSON.stringify(answer.data)).toBe('{"__proto__":"plain text"}');
    expect(screen.getByText('No open requests.')).toBeTruthy();
  });

  it('a view that throws shows an error for that question only, which can still be refused', async () => {
    const user = userEvent.setup();
    // React reports the caught render error on the console (React 18 in development also replays it
    // as a window error event); both reports are expected here.
    const report = vi.spyOn(console, 'error').mockImplementation(() => {});
    const replayed = (event: ErrorEvent) => event.preventDefault();
    window.addEventListener('error', replayed);
    function Fragile({ id }: { id: string }) {
      if (id === 'broken') throw new Error('This view cannot draw itself.');
      return <RequestListItem id={id} />;
    }
    try {
      const { inbox } = renderWithInbox(<RequestList item={Fragile} />);
      const first = ask(inbox, question('one', 'alpha'));
      const broken = ask(inbox, question('broken', 'evil'));
      const last = ask(inbox, question('three', 'gamma'));
      const items = screen.getAllByRole('listitem');
      expect(items).toHaveLength(3);
      expect(within(items[1]!).getByRole('alert').textContent).toMatch(/cannot be shown/);
      expect(within(items[1]!).getByText('evil')).toBeTruthy();
      expect(within(items[1]!).queryByRole('button', { name: /^Approve — / })).toBeNull();
      expect(within(items[0]!).getByRole('button', { name: /^Approve — / })).toBeTruthy();
      expect(within(items[2]!).getByRole('button', { name: /^Approve — / })).toBeTruthy();

      await user.click(within(items[1]!).getByRole('button', { name: /^Cancel — / }));
      await expect(broken).resolves.toEqual({ id: 'broken', ok: false, reason: 'cancelled' });
      await user.click(within(items[2]!).getByRole('button', { name: /^Approve — / }));
      await expect(last).resolves.toEqual({ id: 'three', ok: true });
      await user.click(screen.getByRole('button', { name: /^Approve — / }));
      await expect(first).resolves.toEqual({ id: 'one', ok: true });
      expect(screen.getByText('No open requests.')).toBeTruthy();
    } finally {
      window.removeEventListener('error', replayed);
      report.mockRestore();
    }
  });
});
