// @vitest-environment jsdom
import { createInbox, WaitforError } from '@waitfor/core';
import type { Answer, Request as WaitforRequest } from '@waitfor/core';
import { RequestList, WaitforProvider } from '@waitfor/react';
import { act, cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { AnswerableInbox } from './handler';
import { createRemoteInbox } from './remoteInbox';
import type { RemoteInbox } from './remoteInbox';
import { ageQuestion, as, startHost } from './__tests__/host';
import type { Host, InboxKind } from './__tests__/host';

// What a person sees when an answer sent from a page does not go through, with @waitfor/react's
// own views on a remote inbox over a real handler on a real Node http server.
let host: Host | undefined;
const remotes: RemoteInbox[] = [];
afterEach(async () => {
  cleanup();
  for (const inbox of remotes.splice(0)) inbox.close();
  await host?.close();
  host = undefined;
});

/** Core's in-memory inbox behind the handler; `submit` may add a rule of the host's own. */
const memoryKind = (rule?: (answer: Answer) => Record<string, string> | undefined): InboxKind => ({
  name: 'in-memory inbox',
  async open() {
    const inbox = createInbox();
    const answerable: AnswerableInbox = {
      ...inbox,
      async submit(answer) {
        const errors = rule?.(answer);
        // The host refuses the answer itself (a store's or a business rule), field by field.
        if (errors !== undefined)
          throw Object.assign(new WaitforError('invalid_answer', 'Refused'), { errors });
        return inbox.answer(answer);
      },
    };
    return { inboxFor: async () => answerable, close: async () => {} };
  },
});

const page = (): RemoteInbox => {
  const inbox = createRemoteInbox({ url: host!.url, headers: as('alice'), retryMs: 20 });
  remotes.push(inbox);
  return inbox;
};

const show = (inbox: RemoteInbox) =>
  render(
    <WaitforProvider inbox={inbox}>
      <RequestList />
    </WaitforProvider>,
  );

const approval = (id: string): WaitforRequest => ({
  id,
  kind: 'approval',
  prompt: `Book trip ${id}?`,
  data: { origin: { server: 'Travel Desk' } },
});

it('a form the host refuses (422) comes back with the typed value and the field error, which editing clears', async () => {
  host = await startHost(
    memoryKind((answer) =>
      answer.ok && Number(answer.data?.age) > 120 ? { age: 'Nobody is that old.' } : undefined,
    ),
  );
  const inbox = page();
  const view = show(inbox);
  const answered = host.ask('alice', ageQuestion('q1'));
  const field = await within(view.container).findByRole('spinbutton');
  fireEvent.change(field, { target: { value: '130' } });
  fireEvent.click(within(view.container).getByRole('button', { name: /^Accept/ }));
  // Refused: the same form again, the person's value kept, the host's message on the field.
  await waitFor(() => expect(view.container.textContent).toContain('Nobody is that old.'));
  const again = within(view.container).getByRole('spinbutton');
  expect((again as HTMLInputElement).value).toBe('130');
  expect(again.getAttribute('aria-invalid')).toBe('true');
  expect(view.container.textContent).toContain(
    'Your answer was not accepted: see the marked fields.',
  );
  // Changing the field takes the stale message away; a fitting answer goes through.
  fireEvent.change(again, { target: { value: '41' } });
  expect(view.container.textContent).not.toContain('Nobody is that old.');
  fireEvent.click(within(view.container).getByRole('button', { name: /^Accept/ }));
  await expect(answered).resolves.toMatchObject({ ok: true, data: { age: 41 } });
});

it('an answer that loses the race (409) says "Answered elsewhere" instead of vanishing; Dismiss takes it away', async () => {
  host = await startHost(memoryKind());
  const late = page();
  const view = show(late);
  void host.ask('alice', approval('trip-1'));
  const button = await within(view.container).findByRole('button', { name: /^Approve — / });
  // Another page answers first; this page has not heard yet when the person clicks.
  late.close();
  expect(
    (await host.inboxFor('alice')).answer({ id: 'trip-1', ok: false, reason: 'declined' }),
  ).toBe(true);
  fireEvent.click(button);
  const note = await within(view.container).findByText(
    'Answered elsewhere: this request is no longer open.',
  );
  expect(note.closest('section')?.getAttribute('aria-label')).toBe(
    'Request from Travel Desk: Book trip trip-1?',
  );
  fireEvent.click(within(view.container).getByRole('button', { name: /^Dismiss — / }));
  expect(within(view.container).queryByText(/Answered elsewhere/)).toBeNull();
  expect(within(view.container).getByText('No open requests.')).toBeTruthy();
});

it('an answer that cannot be sent (host down) comes back with the typed value and says so', async () => {
  host = await startHost(memoryKind());
  const inbox = page();
  const view = show(inbox);
  void host.ask('alice', ageQuestion('q2'));
  const field = await within(view.container).findByRole('spinbutton');
  fireEvent.change(field, { target: { value: '33' } });
  await host.close();
  host = undefined;
  fireEvent.click(within(view.container).getByRole('button', { name: /^Accept/ }));
  await within(view.container).findByText(
    'Your answer could not be sent. It is kept here: send it again.',
  );
  expect((within(view.container).getByRole('spinbutton') as HTMLInputElement).value).toBe('33');
});

it('the live region does not announce what a (re)loaded page finds, only what arrives after', async () => {
  host = await startHost(memoryKind());
  void host.ask('alice', approval('old-1'));
  void host.ask('alice', approval('old-2'));
  const inbox = page();
  const view = show(inbox);
  await within(view.container).findByRole('button', { name: /^Approve — Book trip old-2/ });
  const announcer = view.container.querySelector('.waitfor-announcer')!;
  expect(announcer.textContent).toBe('');
  void host.ask('alice', approval('new-1'));
  await waitFor(() =>
    expect(announcer.textContent).toBe('New question from Travel Desk: Book trip new-1?'),
  );
  // Answered elsewhere: the announcement is taken back.
  await act(async () => {
    (await host!.inboxFor('alice')).answer({ id: 'new-1', ok: true });
  });
  await waitFor(() => expect(announcer.textContent).toBe(''));
});
