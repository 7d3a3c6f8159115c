import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInbox, decline } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { AuthorizationConsent, describeUrl } from '@waitfor/react';
import { ask, renderWithInbox } from './__tests__/harness.js';

const consentRequest = (url: string | undefined): Request => ({
  id: 'auth-1',
  kind: 'authorization',
  prompt: 'Sign in to continue',
  ...(url === undefined ? {} : { url }),
  data: { origin: { server: 'billing' } },
});

function setup(url: string | undefined) {
  const user = userEvent.setup();
  const open = vi.fn();
  const request = consentRequest(url);
  const rendered = renderWithInbox(<AuthorizationConsent request={request} open={open} />);
  const answer = ask(rendered.inbox, request);
  return { user, open, answer, ...rendered };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('AuthorizationConsent', () => {
  it('shows the full URL as text and the host apart, and opens nothing before a click', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const windowOpen = vi.spyOn(window, 'open').mockImplementation(() => null);
    const { user, open, answer, inbox } = setup('https://login.example.com/authorize?state=abc');
    expect(screen.getByText('billing')).toBeTruthy();
    const shown = screen.getByText('https://login.example.com/authorize?state=abc');
    expect(shown.closest('a')).toBeNull();
    expect(document.querySelectorAll('a, iframe, img, link')).toHaveLength(0);
    const host = document.querySelector('[data-waitfor-host]');
    expect(host?.textContent).toBe('login.example.com');
    expect(host).not.toBe(shown);
    expect(screen.queryByRole('alert')).toBeNull();

    expect(open).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(windowOpen).not.toHaveBeenCalled();
    expect(inbox.get('auth-1')).toBeDefined();

    await user.click(screen.getByRole('button', { name: /^Open login\.example\.com — / }));
    expect(open).toHaveBeenCalledTimes(1);
    expect(open).toHaveBeenCalledWith('https://login.example.com/authorize?state=abc');
    await expect(answer).resolves.toEqual({ id: 'auth-1', ok: true });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('the default opener uses a new tab without opener or referrer, only on click', async () => {
    const windowOpen = vi.spyOn(window, 'open').mockImplementation(() => null);
    const user = userEvent.setup();
    const request = consentRequest('https://example.org/');
    const { inbox } = renderWithInbox(<AuthorizationConsent request={request} />);
    const answer = ask(inbox, request);
    expect(windowOpen).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: /^Open/ }));
    expect(windowOpen).toHaveBeenCalledWith(
      'https://example.org/',
      '_blank',
      'noopener,noreferrer',
    );
    await expect(answer).resolves.toMatchObject({ ok: true });
  });

  it.each([
    ['javascript:alert(1)', 'javascript:'],
    ['file:///etc/passwd', 'file:'],
    ['data:text/html,<h1>hi</h1>', 'data:'],
  ])('cannot open %s: the button is disabled and says why', async (url, scheme) => {
    const { user, open, inbox } = setup(url);
    const button = screen.getByRole('button', { name: /^Open/ });
    expect(button).toHaveProperty('disabled', true);
    expect(screen.getByRole('alert').textContent).toContain(`Only http and https`);
    expect(screen.getByRole('alert').textContent).toContain(scheme);
    await user.click(button);
    expect(open).not.toHaveBeenCalled();
    expect(inbox.get('auth-1')).toBeDefined();
    // Declining still works.
    await user.click(screen.getByRole('button', { name: /^Decline — / }));
    expect(inbox.get('auth-1')).toBeUndefined();
  });

  it('shows a non-default port right after the highlighted host, so two local servers differ', async () => {
    const { user, open, answer } = setup('http://127.0.0.1:5199/signin/abc');
    const host = document.querySelector('[data-waitfor-host]');
    expect(host?.textContent).toBe('127.0.0.1');
    const port = document.querySelector('[data-waitfor-port]');
    expect(port?.textContent).toBe(':5199');
    expect(host?.nextSibling).toBe(port);
    expect(host?.parentElement?.textContent).toBe('Site: 127.0.0.1:5199');
    await user.click(screen.getByRole('button', { name: /^Open 127\.0\.0\.1:5199 — / }));
    expect(open).toHaveBeenCalledWith('http://127.0.0.1:5199/signin/abc');
    await expect(answer).resolves.toMatchObject({ ok: true });
  });

  it.each([
    ['https://login.example.com:443/authorize', 'login.example.com'],
    ['http://127.0.0.1:80/signin', '127.0.0.1'],
  ])('shows no port when %s names its scheme default', (url, host) => {
    setup(url);
    expect(document.querySelector('[data-waitfor-host]')?.textContent).toBe(host);
    expect(document.querySelector('[data-waitfor-port]')).toBeNull();
    expect(
      screen.getByRole('button', { name: (name) => name.startsWith(`Open ${host} — `) }),
    ).toBeTruthy();
  });

  it('warns about punycode and non-ASCII hosts', () => {
    setup('https://xn--pypal-4ve.com/login');
    expect(screen.getByRole('alert').textContent).toMatch(/punycode/);
    expect(document.querySelector('[data-waitfor-host]')?.textContent).toBe('xn--pypal-4ve.com');
    expect(screen.getByRole('button', { name: /^Open/ })).toHaveProperty('disabled', false);
  });

  it('a missing or malformed URL cannot be opened', () => {
    setup(undefined);
    expect(screen.getByRole('button', { name: /^Open/ })).toHaveProperty('disabled', true);
    expect(screen.getByRole('alert').textContent).toMatch(/No address/);
  });

  it('opens nothing when the Request expired before the click (the consent was not delivered)', async () => {
    const user = userEvent.setup();
    const open = vi.fn();
    let now = Date.now();
    const inbox = createInbox({ now: () => now });
    const request = {
      ...consentRequest('https://login.example.com/authorize'),
      expiresAt: new Date(now + 60_000).toISOString(),
    };
    renderWithInbox(<AuthorizationConsent request={request} open={open} />, inbox);
    const answer = ask(inbox, request);
    // The clock passes expiresAt before the expiry timer runs (a sleeping laptop, a throttled tab):
    // the button is still there, but the inbox refuses the late consent.
    now += 61_000;
    await user.click(screen.getByRole('button', { name: /^Open login\.example\.com — / }));
    await expect(answer).resolves.toEqual({ id: 'auth-1', ok: false, reason: 'expired' });
    expect(open).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: /^Open/ })).toBeNull();
  });

  it('opens nothing when the Request was answered elsewhere just before the click', async () => {
    const user = userEvent.setup();
    const { open, answer, inbox } = setup('https://login.example.com/authorize');
    const button = screen.getByRole('button', { name: /^Open login\.example\.com — / });
    // Another view (another tab, a policy) declines while this click is on its way: the click's
    // native event reaches the window first, before React has re-rendered this view.
    const elsewhere = () => inbox.answer(decline(consentRequest(undefined)));
    window.addEventListener('click', elsewhere, { capture: true, once: true });
    await user.click(button);
    await expect(answer).resolves.toEqual({ id: 'auth-1', ok: false, reason: 'declined' });
    expect(open).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toMatch(/Answered elsewhere/);
  });

  it('decline and cancel send their answers without opening anything', async () => {
    const { user, open, answer } = setup('https://example.com/');
    await user.click(screen.getByRole('button', { name: /^Cancel — / }));
    await expect(answer).resolves.toMatchObject({ ok: false, reason: 'cancelled' });
    expect(open).not.toHaveBeenCalled();
  });
});

describe('describeUrl', () => {
  it('flags IDN hosts given in Unicode, which the URL parser turns into punycode', () => {
    const inspection = describeUrl('https://pаypal.com/');
    expect(inspection.host).toMatch(/^xn--/);
    expect(inspection.warnings.join(' ')).toMatch(/punycode/);
    expect(inspection.openable).toBe(true);
  });

  it('names the real host when credentials come before "@"', () => {
    const inspection = describeUrl('https://bank.example.com@evil.example/');
    expect(inspection.host).toBe('evil.example');
    expect(inspection.warnings.join(' ')).toMatch(/user name/);
  });

  it.each([
    ['a bidi override', 'https://example.com/\u202Egpj.exe'],
    ['a zero-width space', 'https://exa\u200Bmple.com/'],
    ['a tab the URL parser drops', 'https://bank.example\t.evil.example/'],
    ['a space', 'https://example.com/a b'],
  ])('cannot open a URL carrying %s (as httpUrlsOnly declines it)', (_name, url) => {
    const inspection = describeUrl(url);
    expect(inspection.openable).toBe(false);
    expect(inspection.problem).toBe('This is not a valid address.');
  });

  it('accepts plain http and https, and reports garbage', () => {
    expect(describeUrl('http://localhost:8080/cb')).toMatchObject({
      openable: true,
      host: 'localhost',
      port: '8080',
      warnings: [],
    });
    expect(describeUrl('https://example.com:443/')).toMatchObject({ port: undefined });
    expect(describeUrl('http://[::1]:3000/')).toMatchObject({ host: '[::1]', port: '3000' });
    expect(describeUrl('not a url')).toMatchObject({
      openable: false,
      problem: 'This is not a valid address.',
    });
  });
});
