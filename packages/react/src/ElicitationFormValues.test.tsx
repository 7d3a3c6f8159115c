import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Request } from '@waitfor/core';
import { ElicitationForm } from '@waitfor/react';
import { ask, renderWithInbox } from './__tests__/harness.js';

/** The control labelled exactly `title` (a required mark " *" may follow). */
const field = (title: string) => screen.getByLabelText(new RegExp(`^${title}( \\*)?$`));

/** The message announced for a control, through its aria-describedby. */
function messageOf(control: HTMLElement): string | undefined {
  const ids = (control.getAttribute('aria-describedby') ?? '').split(' ');
  return ids
    .map((id) => document.getElementById(id))
    .find((node) => node?.getAttribute('role') === 'alert')?.textContent;
}

function setup(request: Request) {
  const user = userEvent.setup();
  const rendered = renderWithInbox(<ElicitationForm request={request} />);
  const answer = ask(rendered.inbox, request);
  return { user, answer, ...rendered };
}

const input = (schema: unknown, data: Record<string, unknown> = {}): Request => ({
  id: 'form',
  kind: 'input',
  prompt: 'Fill in',
  data: { schema, ...data },
});

describe('fields named like Object.prototype members', () => {
  const schema = {
    type: 'object',
    properties: {
      constructor: { type: 'string' },
      toString: { type: 'string', default: 'shown' },
      valueOf: { type: 'integer' },
    },
    required: ['constructor'],
  };

  it('render empty or with their default, and are submitted under their own names', async () => {
    const { user, inbox, answer } = setup(input(schema));
    expect(field('constructor')).toHaveProperty('value', '');
    expect(field('toString')).toHaveProperty('value', 'shown');
    expect(field('valueOf')).toHaveProperty('value', '');
    for (const name of ['constructor', 'toString', 'valueOf']) {
      expect(field(name).getAttribute('aria-invalid')).toBeNull();
    }

    await user.click(screen.getByRole('button', { name: /^Accept — / }));
    expect(inbox.get('form')).toBeDefined();
    expect(messageOf(field('constructor'))).toBe('Required.');
    expect(field('toString').getAttribute('aria-invalid')).toBeNull();

    await user.type(field('constructor'), 'c');
    await user.type(field('valueOf'), '5');
    await user.click(screen.getByRole('button', { name: /^Accept — / }));
    await expect(answer).resolves.toEqual({
      id: 'form',
      ok: true,
      data: { constructor: 'c', toString: 'shown', valueOf: 5 },
    });
  });

  it('a re-ask parsed from JSON shows "__proto__" values and messages as its own', () => {
    const data = JSON.parse(
      '{"values":{"__proto__":"typed"},"errors":{"__proto__":"Too short."},"attempt":2}',
    ) as Record<string, unknown>;
    const protoSchema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string","title":"Proto"}}}',
    ) as unknown;
    setup(input(protoSchema, data));
    expect(field('Proto')).toHaveProperty('value', 'typed');
    expect(messageOf(field('Proto'))).toBe('Too short.');
  });
});

describe('what is sent is what the form shows', () => {
  // Deploy a service: the shape of the example app's question.
  const deploy = {
    type: 'object',
    properties: {
      service: { type: 'string', title: 'Service' },
      version: { type: 'string', title: 'Version', default: '1.0.0' },
      region: { type: 'string', title: 'Region', default: 'eu-west' },
      replicas: { type: 'integer', title: 'Replicas', default: 2 },
      notify: { type: 'boolean', title: 'Notify', default: true },
      channels: {
        type: 'array',
        title: 'Channels',
        items: { type: 'string', enum: ['email', 'chat'] },
        default: ['email'],
      },
    },
    required: ['service', 'version'],
  };

  it('shows the defaults before submit and sends the untouched ones', async () => {
    const { user, answer } = setup(input(deploy));
    expect(field('Version')).toHaveProperty('value', '1.0.0');
    expect(field('Region')).toHaveProperty('value', 'eu-west');
    expect(field('Replicas')).toHaveProperty('value', '2');
    expect(field('Notify')).toHaveProperty('checked', true);
    await user.type(field('Service'), 'api');
    await user.click(screen.getByRole('button', { name: /^Accept — / }));
    await expect(answer).resolves.toEqual({
      id: 'form',
      ok: true,
      data: {
        service: 'api',
        version: '1.0.0',
        region: 'eu-west',
        replicas: 2,
        notify: true,
        channels: ['email'],
      },
    });
  });

  it('a cleared required field with a default is an error on that field; nothing is sent', async () => {
    const { user, inbox } = setup(input(deploy));
    await user.type(field('Service'), 'api');
    await user.clear(field('Version'));
    await user.click(screen.getByRole('button', { name: /^Accept — / }));
    expect(inbox.get('form')).toBeDefined();
    expect(field('Version')).toHaveProperty('value', '');
    expect(field('Version').getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(field('Version'))).toBe('Required.');
    expect(document.activeElement).toBe(field('Version'));
  });

  it('a cleared optional field with a default is left out of the Answer, not refilled', async () => {
    const { user, answer } = setup(input(deploy));
    await user.type(field('Service'), 'api');
    await user.clear(field('Region'));
    await user.clear(field('Replicas'));
    await user.click(
      within(screen.getByRole('group', { name: 'Channels' })).getByLabelText('email'),
    );
    await user.click(screen.getByRole('button', { name: /^Accept — / }));
    const result = await answer;
    expect(result).toEqual({
      id: 'form',
      ok: true,
      data: { service: 'api', version: '1.0.0', notify: true },
    });
    expect(Object.hasOwn(result.data ?? {}, 'region')).toBe(false);
  });

  it('with every optional field cleared, the Answer still carries data (empty), so no default returns', async () => {
    const optional = {
      type: 'object',
      properties: { region: { type: 'string', title: 'Region', default: 'eu-west' } },
    };
    const { user, answer } = setup(input(optional));
    await user.clear(field('Region'));
    await user.click(screen.getByRole('button', { name: /^Accept — / }));
    // An accept without data asks for the schema's defaults; one with data is sent as given.
    await expect(answer).resolves.toEqual({ id: 'form', ok: true, data: {} });
  });
});
