import { describe, expect, it } from 'vitest';
import { httpUrlsOnly } from '@waitfor/core';
import type { Request } from '@waitfor/core';
import { inspectUrl, requestServer } from '@waitfor/core/form';

describe('inspectUrl', () => {
  it('reads a plain https URL: its host apart, nothing to warn about', () => {
    expect(inspectUrl('https://login.example.com/authorize?state=abc')).toEqual({
      text: 'https://login.example.com/authorize?state=abc',
      host: 'login.example.com',
      port: undefined,
      scheme: 'https:',
      openable: true,
      problem: undefined,
      warnings: [],
    });
  });

  it('shows a port that is not the scheme default, so two local servers read apart', () => {
    expect(inspectUrl('http://127.0.0.1:5199/signin')).toMatchObject({
      host: '127.0.0.1',
      port: '5199',
    });
    expect(inspectUrl('http://[::1]:3000/')).toMatchObject({ host: '[::1]', port: '3000' });
    expect(inspectUrl('https://example.com:443/')).toMatchObject({ port: undefined });
    expect(inspectUrl('http://127.0.0.1:80/')).toMatchObject({ port: undefined });
  });

  it.each([
    ['javascript:alert(1)', 'javascript:'],
    ['file:///etc/passwd', 'file:'],
    ['data:text/html,<h1>hi</h1>', 'data:'],
    ['ftp://files.example.com/', 'ftp:'],
  ])('opens only http and https: %s is refused', (url, scheme) => {
    expect(inspectUrl(url)).toMatchObject({ openable: false, problem: 'scheme', scheme });
  });

  it('warns about punycode hosts, given as xn-- or in Unicode (which the parser turns into xn--)', () => {
    expect(inspectUrl('https://xn--pypal-4ve.com/login')).toMatchObject({
      host: 'xn--pypal-4ve.com',
      openable: true,
      warnings: ['punycode'],
    });
    const unicode = inspectUrl('https://pаypal.com/');
    expect(unicode.host).toMatch(/^xn--/);
    expect(unicode.warnings).toEqual(['punycode']);
  });

  it('names the real host when credentials come before "@"', () => {
    expect(inspectUrl('https://bank.example.com@evil.example/')).toMatchObject({
      host: 'evil.example',
      warnings: ['credentials'],
    });
  });

  it('a missing or unreadable URL cannot be opened', () => {
    expect(inspectUrl(undefined)).toMatchObject({ text: '', openable: false, problem: 'missing' });
    expect(inspectUrl('  ')).toMatchObject({ openable: false, problem: 'missing' });
    expect(inspectUrl('not a url')).toMatchObject({
      text: 'not a url',
      openable: false,
      problem: 'malformed',
    });
  });

  // Every control (Cc), format (Cf: bidi, zero-width) and separator (Z) character that the URL
  // parser accepts somewhere in an http URL: each hides or reorders the real target, or is dropped.
  const hiddenCharacters = Array.from({ length: 0x3000 + 1 }, (_, code) =>
    String.fromCharCode(code),
  ).filter((character) => /^[\p{Cc}\p{Cf}\p{Z}]$/u.test(character));

  it.each(['https://example.com/a{}b', 'https://ex{}ample.com/', 'https://example.com/?q={}'])(
    'refuses %s for every control, format and separator character, as httpUrlsOnly does',
    (template) => {
      const policy = httpUrlsOnly();
      for (const character of hiddenCharacters) {
        const url = template.replace('{}', character);
        const inspection = inspectUrl(url);
        expect(inspection.openable, JSON.stringify(url)).toBe(false);
        const request: Request = { id: 'u', kind: 'authorization', prompt: 'Open', url };
        expect(policy(request, {}), JSON.stringify(url)).toMatchObject({ reason: 'declined' });
      }
    },
  );

  it('shows the parsed href, where control characters are percent-encoded', () => {
    const inspection = inspectUrl('https://evil.example/\u001b[2Khttps://bank.example/');
    expect(inspection.text).toBe('https://evil.example/%1B[2Khttps://bank.example/');
    expect(inspection).toMatchObject({ openable: false, problem: 'characters' });
  });
});

describe('requestServer', () => {
  const asking = (server: unknown): Request =>
    ({ id: 'r', kind: 'approval', prompt: 'Ok?', data: { origin: { server } } }) as Request;

  it('names the server that asks, or nothing when the Request does not say', () => {
    expect(requestServer(asking('billing'))).toBe('billing');
    expect(requestServer(asking('  '))).toBeUndefined();
    expect(requestServer(asking(42))).toBeUndefined();
    expect(requestServer({ id: 'r', kind: 'approval', prompt: 'Ok?' })).toBeUndefined();
  });
});
