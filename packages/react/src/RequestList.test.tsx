import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createInbox } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { ApprovalView, ElicitationForm, RequestList, useRequest } from '@waitfor/react';
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
    expect(within(items[0]!).getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(within(items[1]!).getByRole('button', { name: 'Open a.example' })).toBeTruthy();
    expect(within(items[1]!).getByText('Unknown server')).toBeTruthy();
    expect(within(items[2]!).getByRole('textbox', { name: 'name' })).toBeTruthy();
    expect(within(items[2]!).getByText('beta')).toBeTruthy();

    await user.click(within(items[0]!).getByRole('button', { name: 'Approve' }));
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
      (inbox: ReturnType<typeof createInbox>) => inbox.answer({ id: 'x', ok: true }),
    ],
    ['the host cancels it', (inbox: ReturnType<typeof createInbox>) => inbox.cancel('x')],
  ])('closes when %s', async (_label, settle) => {
    const request = question('x');
    const { inbox } = renderWithInbox(<ApprovalView request={request} />);
    const answer = ask(inbox, request);
    expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
    act(() => {
      settle(inbox);
    });
    await answer;
    expect(screen.getByRole('status').textContent).toMatch(/answered elsewhere/i);
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
    expect(screen.getByRole('status').textContent).toMatch(/answered elsewhere/i);
  });
});
