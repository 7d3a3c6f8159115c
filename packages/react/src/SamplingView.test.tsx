import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CallProgress, ConnectionStatus, SamplingView } from '@waitfor/react';
import { everyRequest } from './__fixtures__/everyView.js';
import { ask, renderWithInbox } from './__tests__/harness.js';

describe('SamplingView', () => {
  it('shows the messages read-only; Edit lets the person change the text, and Approve sends the edited params', async () => {
    const user = userEvent.setup();
    const request = everyRequest.sampling;
    const { inbox } = renderWithInbox(<SamplingView request={request} />);
    const answer = ask(inbox, request);
    const hello = screen.getByRole('textbox', { name: 'User' });
    expect(hello).toHaveProperty('readOnly', true);
    expect(screen.getByRole('textbox', { name: 'Assistant' })).toHaveProperty(
      'value',
      '[image content]',
    );
    expect(document.body.textContent).toContain('Preferred models: claude');
    expect(document.body.textContent).toContain('At most 1,234 tokens');
    await user.click(screen.getByRole('button', { name: 'Edit — Modell fragen? (Reisebüro)' }));
    expect(screen.getByRole('textbox', { name: 'Assistant' })).toHaveProperty('readOnly', true);
    await user.clear(hello);
    await user.type(hello, 'Guten Tag');
    await user.type(screen.getByRole('textbox', { name: 'System prompt' }), '!');
    await user.click(screen.getByRole('button', { name: 'Approve — Modell fragen? (Reisebüro)' }));
    const params = request.data.params;
    await expect(answer).resolves.toEqual({
      id: 'sampling',
      ok: true,
      data: {
        params: {
          ...params,
          systemPrompt: 'Sei knapp!',
          messages: [
            { role: 'user', content: { type: 'text', text: 'Guten Tag' } },
            params.messages[1],
          ],
        },
      },
    });
  });

  it('too many messages to review: only decline and cancel, nothing is listed', async () => {
    const user = userEvent.setup();
    const request = everyRequest.samplingTooLarge;
    const { inbox } = renderWithInbox(<SamplingView request={request} />);
    const answer = ask(inbox, request);
    expect(screen.getByRole('alert').textContent).toMatch(/too large/);
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.getByRole('button', { name: /^Approve — / })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: /^Decline — / }));
    await expect(answer).resolves.toEqual({
      id: 'samplingTooLarge',
      ok: false,
      reason: 'declined',
    });
  });

  it('reads own keys only: inherited params or a "constructor" role show nothing of Object.prototype', () => {
    const params = Object.create({
      messages: [{ role: 'user', content: { type: 'text', text: 'geerbt' } }],
    });
    const request = { id: 'odd', kind: 'sampling', prompt: 'Seltsam?', data: { params } };
    const { inbox } = renderWithInbox(<SamplingView request={request} />);
    ask(inbox, request);
    expect(document.body.textContent).not.toContain('geerbt');
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
  });
});

describe('CallProgress and ConnectionStatus', () => {
  it('a total below the progress, or a value that is not a finite number, shows an unknown bar', () => {
    renderWithInbox(
      <>
        <CallProgress progress={3} total={10} label="Upload" message="Sending" />
        <CallProgress progress={30} total={10} label="Odd" />
        <CallProgress progress={Number.NaN} total={10} label="Broken" />
      </>,
    );
    const upload = screen.getByRole('progressbar', { name: 'Upload' });
    expect(upload.getAttribute('value')).toBe('3');
    expect(upload.getAttribute('max')).toBe('10');
    expect(document.body.textContent).toContain('3 of 10');
    expect(document.body.textContent).toContain('Sending');
    expect(screen.getByRole('progressbar', { name: 'Odd' }).hasAttribute('value')).toBe(false);
    expect(document.body.textContent).toContain('30 done');
    expect(screen.getByRole('progressbar', { name: 'Broken' }).hasAttribute('value')).toBe(false);
  });

  it('says each connection state as a status line with data-waitfor-state', () => {
    renderWithInbox(
      <ConnectionStatus server="Travel Desk" state="reconnecting" className="mine" />,
    );
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Reconnecting to Travel Desk…');
    expect(status.getAttribute('data-waitfor-state')).toBe('reconnecting');
    expect(status.className).toBe('waitfor-connection mine');
  });
});
