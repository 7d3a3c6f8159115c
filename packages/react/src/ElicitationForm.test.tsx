import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Request } from '@waitfor/core';
import { validateFormAnswer } from '@waitfor/core/form';
import { ElicitationForm } from '@waitfor/react';
import { everythingElicitationSchema } from './__fixtures__/everythingElicitationSchema.js';
import { ask, renderWithInbox } from './__tests__/harness.js';

const everythingRequest: Request = {
  id: 'elc-everything',
  kind: 'input',
  prompt: 'Please provide inputs for the following fields:',
  data: { schema: everythingElicitationSchema, origin: { server: 'mcp-servers/everything' } },
};

/** The control labelled exactly `title` (a required mark " *" may follow). */
const field = (title: string) =>
  screen.getByLabelText(new RegExp(`^${title.replace(/[()]/g, '\\$&')}( \\*)?$`));

function setup(request: Request = everythingRequest) {
  const user = userEvent.setup();
  const rendered = renderWithInbox(<ElicitationForm request={request} />);
  const answer = ask(rendered.inbox, request);
  return { user, answer, ...rendered };
}

describe('ElicitationForm with the server-everything schema', { timeout: 20_000 }, () => {
  it('renders a labelled native control for every field, seeded with the defaults', () => {
    setup();
    expect(screen.getByText('mcp-servers/everything')).toBeTruthy();
    expect(field('String')).toHaveProperty('required', true);
    expect(field('String').getAttribute('type')).toBe('text');
    expect(field('Boolean').getAttribute('type')).toBe('checkbox');
    expect(field('String with default')).toHaveProperty('value', 'It was a dark and stormy night.');
    expect(field('String with email format').getAttribute('type')).toBe('email');
    expect(field('String with uri format').getAttribute('type')).toBe('url');
    expect(field('String with date format').getAttribute('type')).toBe('date');
    expect(field('Integer')).toHaveProperty('value', '42');
    expect(field('Integer').getAttribute('min')).toBe('1');
    expect(field('Integer').getAttribute('max')).toBe('100');
    expect(field('Number in range 1-1000')).toHaveProperty('value', '3.14');
    expect(field('Untitled Single Select Enum')).toHaveProperty('value', 'Monica');
    expect(field('Titled Single Select Enum')).toHaveProperty('value', 'hero-1');
    expect(field('Legacy Titled Single Select Enum')).toHaveProperty('value', 'pet-1');
    const legacy = field('Legacy Titled Single Select Enum') as HTMLSelectElement;
    // Optional: the person may also leave it unset.
    expect([...legacy.options].map((option) => option.textContent)).toEqual([
      'Choose…',
      'Cats',
      'Dogs',
      'Birds',
      'Fish',
      'Reptiles',
    ]);
    const instruments = screen.getByRole('group', { name: /^Untitled Multiple Select Enum/ });
    expect(within(instruments).getByLabelText('Guitar')).toHaveProperty('checked', true);
    expect(within(instruments).getByLabelText('Piano')).toHaveProperty('checked', false);
    const fish = screen.getByRole('group', { name: /^Titled Multiple Select Enum/ });
    expect(within(fish).getByLabelText('Tuna')).toHaveProperty('checked', true);
    expect(within(fish).getAllByRole('checkbox')).toHaveLength(3);
    // Descriptions are tied to their control for assistive technology.
    const described = field('String').getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(described)?.textContent).toBe('Your full, legal name');
  });

  it('filled by user events and accepted: the Answer passes validateFormAnswer', async () => {
    const { user, answer } = setup();
    await user.type(field('String'), 'Ada Lovelace');
    await user.click(field('Boolean'));
    await user.clear(field('String with default'));
    await user.type(field('String with default'), 'Call me Ishmael.');
    await user.type(field('String with email format'), 'ada@example.com');
    await user.type(field('String with uri format'), 'https://ada.example/');
    await user.type(field('String with date format'), '1815-12-10');
    await user.clear(field('Integer'));
    await user.type(field('Integer'), '7');
    await user.clear(field('Number in range 1-1000'));
    await user.type(field('Number in range 1-1000'), '12.5');
    await user.selectOptions(field('Untitled Single Select Enum'), 'Joey');
    await user.click(screen.getByLabelText('Piano'));
    await user.selectOptions(field('Titled Single Select Enum'), 'Wonder Woman');
    await user.click(screen.getByLabelText('Salmon'));
    await user.selectOptions(field('Legacy Titled Single Select Enum'), 'Dogs');
    await user.click(screen.getByRole('button', { name: /^Accept — / }));

    const result = await answer;
    expect(result).toEqual({
      id: 'elc-everything',
      ok: true,
      data: {
        name: 'Ada Lovelace',
        check: true,
        firstLine: 'Call me Ishmael.',
        email: 'ada@example.com',
        homepage: 'https://ada.example/',
        birthdate: '1815-12-10',
        integer: 7,
        number: 12.5,
        untitledSingleSelectEnum: 'Joey',
        untitledMultipleSelectEnum: ['Guitar', 'Piano'],
        titledSingleSelectEnum: 'hero-3',
        titledMultipleSelectEnum: ['fish-1', 'fish-2'],
        legacyTitledEnum: 'pet-2',
      },
    });
    expect(validateFormAnswer(everythingElicitationSchema, result.data)).toEqual({
      ok: true,
      value: result.data,
    });
    // The view that answered closes itself.
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByText(/answered elsewhere/i)).toBeNull();
  });

  it('an invalid accept shows per-field errors, keeps every value, and sends nothing', async () => {
    const { user, inbox, answer } = setup();
    await user.type(field('String with email format'), 'not-an-email');
    await user.clear(field('Integer'));
    await user.type(field('Integer'), '500');
    await user.click(screen.getByLabelText('Drums'));
    await user.click(screen.getByLabelText('Bass'));
    await user.click(screen.getByLabelText('Violin'));
    await user.click(screen.getByRole('button', { name: /^Accept — / }));

    expect(inbox.get('elc-everything')).toBeDefined();
    for (const title of ['String', 'String with email format', 'Integer']) {
      const control = field(title);
      expect(control.getAttribute('aria-invalid')).toBe('true');
      const ids = (control.getAttribute('aria-describedby') ?? '').split(' ');
      const error = ids
        .map((id) => document.getElementById(id))
        .find((node) => node?.getAttribute('role') === 'alert');
      expect(error?.textContent).toBeTruthy();
    }
    const instruments = screen.getByRole('group', { name: /^Untitled Multiple Select Enum/ });
    expect(within(instruments).getByRole('alert').textContent).toBeTruthy();
    expect(field('String with default').getAttribute('aria-invalid')).toBeNull();
    // Focus moves to the first field that needs attention.
    expect(document.activeElement).toBe(field('String'));
    // The person's values are all still there.
    expect(field('String with email format')).toHaveProperty('value', 'not-an-email');
    expect(field('Integer')).toHaveProperty('value', '500');
    expect(
      within(instruments)
        .getAllByRole('checkbox')
        .filter((box) => (box as HTMLInputElement).checked)
        .map((box) => box.getAttribute('id') && box.parentElement?.textContent),
    ).toEqual(['Guitar', 'Violin', 'Drums', 'Bass']);

    // Fixing them and accepting again succeeds.
    await user.type(field('String'), 'Ada');
    await user.clear(field('String with email format'));
    await user.type(field('String with email format'), 'ada@example.com');
    await user.clear(field('Integer'));
    await user.type(field('Integer'), '5');
    await user.click(screen.getByLabelText('Bass'));
    await user.click(screen.getByRole('button', { name: /^Accept — / }));
    const result = await answer;
    expect(result.ok).toBe(true);
    expect(result.data).toMatchObject({ name: 'Ada', integer: 5, email: 'ada@example.com' });
    expect(validateFormAnswer(everythingElicitationSchema, result.data).ok).toBe(true);
  });

  it('decline and cancel are never validated', async () => {
    const declined = setup();
    await declined.user.type(field('String with email format'), 'not-an-email');
    await declined.user.click(screen.getByRole('button', { name: /^Decline — / }));
    await expect(declined.answer).resolves.toEqual({
      id: 'elc-everything',
      ok: false,
      reason: 'declined',
    });
    declined.unmount();

    const cancelled = setup();
    await cancelled.user.click(screen.getByRole('button', { name: /^Cancel — / }));
    await expect(cancelled.answer).resolves.toMatchObject({ ok: false, reason: 'cancelled' });
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('is operable with the keyboard alone', async () => {
    const request: Request = {
      id: 'keys',
      kind: 'input',
      prompt: 'Choose',
      data: {
        schema: {
          type: 'object',
          properties: {
            who: { type: 'string', title: 'Who' },
            agree: { type: 'boolean', title: 'Agree' },
            tags: { type: 'array', title: 'Tags', items: { type: 'string', enum: ['a', 'b'] } },
          },
          required: ['who'],
        },
      },
    };
    const { user, answer } = setup(request);
    await user.tab();
    expect(document.activeElement).toBe(field('Who'));
    await user.keyboard('Grace');
    await user.tab();
    await user.keyboard(' ');
    await user.tab();
    await user.tab();
    await user.keyboard(' ');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Accept — / }));
    await user.keyboard('{Enter}');
    await expect(answer).resolves.toEqual({
      id: 'keys',
      ok: true,
      data: { who: 'Grace', agree: true, tags: ['b'] },
    });
  });

  it('a malformed schema shows a clear error and still lets the person decline', async () => {
    const request: Request = {
      id: 'broken',
      kind: 'input',
      prompt: 'Nested',
      data: {
        schema: { type: 'object', properties: { deep: { type: 'object', properties: {} } } },
      },
    };
    const { user, answer } = setup(request);
    expect(screen.getByRole('alert').textContent).toMatch(/cannot be shown/);
    expect(screen.getByRole('button', { name: /^Accept — / })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: /^Decline — / }));
    await expect(answer).resolves.toMatchObject({ id: 'broken', ok: false, reason: 'declined' });
  });

  it("a re-ask shows the person's values and the server's messages; the fixed values are sent", async () => {
    // What mcp-bridge asks after an invalid answer: a fresh id, the same schema, the person's
    // values, one message per refused field, and the attempt number.
    const reAsk: Request = {
      ...everythingRequest,
      id: 'elc-everything-2',
      data: {
        ...everythingRequest.data,
        values: {
          name: 'Ada Lovelace',
          check: true,
          email: 'ada(at)example.com',
          integer: 500,
          untitledMultipleSelectEnum: ['Piano'],
          titledSingleSelectEnum: 'hero-2',
        },
        errors: {
          email: 'Expected an email address.',
          integer: 'Must be at most 100.',
          nonsense: 'A field that does not exist.',
        },
        attempt: 2,
      },
    };
    const { user, answer } = setup(reAsk);
    expect(document.querySelector('[data-waitfor-attempt]')?.textContent).toBe(
      'Asked again: please check your answer.',
    );
    // The person's values, not the defaults.
    expect(field('String')).toHaveProperty('value', 'Ada Lovelace');
    expect(field('Boolean')).toHaveProperty('checked', true);
    expect(field('Integer')).toHaveProperty('value', '500');
    expect(field('Titled Single Select Enum')).toHaveProperty('value', 'hero-2');
    const instruments = screen.getByRole('group', { name: /^Untitled Multiple Select Enum/ });
    expect(within(instruments).getByLabelText('Piano')).toHaveProperty('checked', true);
    expect(within(instruments).getByLabelText('Guitar')).toHaveProperty('checked', false);
    // A field the re-ask did not mention keeps its default.
    expect(field('String with default')).toHaveProperty('value', 'It was a dark and stormy night.');
    // The messages are on their fields, announced; the unknown one is nowhere.
    expect(field('String with email format').getAttribute('aria-invalid')).toBe('true');
    expect(field('Integer').getAttribute('aria-invalid')).toBe('true');
    expect(field('String').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'Expected an email address.',
      'Must be at most 100.',
    ]);
    expect(screen.queryByText(/does not exist/)).toBeNull();

    await user.clear(field('String with email format'));
    await user.type(field('String with email format'), 'ada@example.com');
    await user.clear(field('Integer'));
    await user.type(field('Integer'), '7');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    await user.click(screen.getByRole('button', { name: /^Accept — / }));
    const result = await answer;
    expect(result).toMatchObject({
      id: 'elc-everything-2',
      ok: true,
      data: {
        name: 'Ada Lovelace',
        check: true,
        email: 'ada@example.com',
        integer: 7,
        untitledMultipleSelectEnum: ['Piano'],
        titledSingleSelectEnum: 'hero-2',
        firstLine: 'It was a dark and stormy night.',
      },
    });
    expect(validateFormAnswer(everythingElicitationSchema, result.data).ok).toBe(true);
  });

  it('a first ask shows no attempt number', () => {
    setup();
    expect(document.querySelector('[data-waitfor-attempt]')).toBeNull();
  });

  it('names the server, or says "Unknown server"', () => {
    setup({
      id: 'anon',
      kind: 'input',
      prompt: 'Who?',
      data: { schema: { type: 'object', properties: {} } },
    });
    expect(screen.getByText('Unknown server')).toBeTruthy();
  });
});
