import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  accept,
  allowServers,
  declineKinds,
  declineServers,
  httpUrlsOnly,
  withPolicies,
  WaitforError,
} from '@waitfor/core';
import type { Policy, Request, WaitFor } from '@waitfor/core';

const from = (server: string | undefined, extra: Partial<Request> = {}): Request => ({
  id: `r-${server}`,
  kind: 'input',
  prompt: 'Name?',
  ...(server === undefined ? {} : { data: { origin: { server } } }),
  ...extra,
});

const person = (): WaitFor & ReturnType<typeof vi.fn> =>
  vi.fn(async (request: Request) => accept(request, { by: 'person' }));

describe('withPolicies', () => {
  it('asks the person when no policy answers, with the same context', async () => {
    const waitFor = person();
    const signal = new AbortController().signal;
    const answer = await withPolicies(
      waitFor,
      () => undefined,
      async () => undefined,
    )(from('a'), { signal });
    expect(answer).toEqual({ id: 'r-a', ok: true, data: { by: 'person' } });
    expect(waitFor).toHaveBeenCalledWith(from('a'), { signal });
  });

  it('lets the first answering policy win and never asks the person', async () => {
    const waitFor = person();
    const second = vi.fn<Policy>(() => undefined);
    const answer = await withPolicies(
      waitFor,
      async (request) => accept(request, { by: 'policy' }),
      second,
    )(from('a'));
    expect(answer.data).toEqual({ by: 'policy' });
    expect(second).not.toHaveBeenCalled();
    expect(waitFor).not.toHaveBeenCalled();
  });

  it('rejects a malformed policy Answer with invalid_answer, without asking', async () => {
    const waitFor = person();
    const error = await withPolicies(waitFor, (request) => ({ id: request.id, ok: false }))(
      from('a'),
    ).catch((reason: unknown) => reason);
    expect(WaitforError.isInstance(error) && [error.code, error.path]).toEqual([
      'invalid_answer',
      'reason',
    ]);
    expect(waitFor).not.toHaveBeenCalled();
  });

  it('rejects a policy Answer for another id with answer_mismatch', async () => {
    const error = await withPolicies(person(), () => accept('other'))(from('a')).catch(
      (reason: unknown) => reason,
    );
    expect(WaitforError.isInstance(error) && error.code).toBe('answer_mismatch');
  });
});

describe('built-in policies', () => {
  it('declineKinds declines the named kinds only', async () => {
    const waitFor = withPolicies(person(), declineKinds(['authorization']));
    await expect(
      waitFor(from('a', { kind: 'authorization', url: 'https://x.test' })),
    ).resolves.toEqual({
      id: 'r-a',
      ok: false,
      reason: 'declined',
    });
    await expect(waitFor(from('a'))).resolves.toMatchObject({ ok: true });
  });

  it('declineServers declines the named servers only', async () => {
    const waitFor = withPolicies(person(), declineServers(['evil']));
    await expect(waitFor(from('evil'))).resolves.toMatchObject({ reason: 'declined' });
    await expect(waitFor(from('good'))).resolves.toMatchObject({ ok: true });
    await expect(waitFor(from(undefined))).resolves.toMatchObject({ ok: true });
  });

  it('allowServers declines every other server and Requests that do not say who asks', async () => {
    const waitFor = withPolicies(person(), allowServers(new Set(['good'])));
    await expect(waitFor(from('good'))).resolves.toMatchObject({ ok: true });
    await expect(waitFor(from('other'))).resolves.toMatchObject({ reason: 'declined' });
    await expect(waitFor(from(undefined))).resolves.toMatchObject({ reason: 'declined' });
  });

  it.each([
    ['javascript:alert(1)', false],
    ['data:text/html,hi', false],
    ['file:///etc/passwd', false],
    ['ftp://example.com', false],
    ['https://', false],
    ['https:///path', false],
    ['https://exa mple.com', false],
    ['https://example.com/\n', false],
    ['https://example.com/a\u0000', false],
    ['//example.com', false],
    ['https://example.com/oauth?state=1#x', true],
    ['HTTP://EXAMPLE.COM', true],
    ['http://127.0.0.1:8080/', true],
  ])('httpUrlsOnly: %s → allowed %s', async (url, allowed) => {
    const waitFor = withPolicies(person(), httpUrlsOnly());
    const answer = await waitFor(from('a', { kind: 'authorization', url }));
    expect(answer.ok).toBe(allowed);
    if (!allowed) expect(answer.reason).toBe('declined');
  });

  it('httpUrlsOnly declines an authorization Request without url and leaves url-less forms alone', async () => {
    const waitFor = withPolicies(person(), httpUrlsOnly());
    await expect(waitFor(from('a', { kind: 'authorization' }))).resolves.toMatchObject({
      reason: 'declined',
    });
    await expect(waitFor(from('a'))).resolves.toMatchObject({ ok: true });
  });

  // Every control (Cc), format (Cf: bidi overrides, zero-width) and separator (Zs, Zl, Zp)
  // character in Unicode, listed by property, so the test does not trust a hand-written range.
  const hidden = Array.from({ length: 0x110000 }, (_, code) => code)
    .filter((code) => code < 0xd800 || code > 0xdfff)
    .map((code) => String.fromCodePoint(code))
    .filter((character) => /^[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]$/u.test(character));

  it('httpUrlsOnly: the list of hidden characters holds the known offenders', () => {
    for (const code of [0x85, 0x9b, 0x202e, 0x2028, 0x2029, 0xa0, 0x3000, 0x200b, 0xfeff])
      expect(hidden).toContain(String.fromCodePoint(code));
  });

  it.each(['0085', '009b', '202e', '2028', '00a0', '3000', '200b'])(
    'httpUrlsOnly declines a url holding U+%s',
    async (code) => {
      const character = String.fromCodePoint(parseInt(code, 16));
      const waitFor = withPolicies(person(), httpUrlsOnly());
      for (const url of [
        `https://exa${character}mple.com/`,
        `https://example.com/a${character}b`,
      ]) {
        const answer = await waitFor(from('a', { kind: 'authorization', url }));
        expect(answer.reason).toBe('declined');
      }
    },
  );

  it('httpUrlsOnly declines an http(s) url with any control, format or separator character anywhere', async () => {
    const policy = httpUrlsOnly();
    await fc.assert(
      fc.asyncProperty(
        fc.webUrl({
          validSchemes: ['http', 'https'],
          withQueryParameters: true,
          withFragments: true,
        }),
        fc.constantFrom(...hidden),
        fc.nat(),
        async (url, character, at) => {
          // After "https://": the scheme itself is checked apart.
          const start = url.indexOf('//') + 2;
          const index = start + (at % (url.length - start + 1));
          const tainted = url.slice(0, index) + character + url.slice(index);
          const answer = await policy(from('a', { kind: 'authorization', url: tainted }), {});
          expect(answer?.reason).toBe('declined');
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('httpUrlsOnly lets ordinary http(s) urls through, non-ASCII letters too', async () => {
    const policy = httpUrlsOnly();
    await fc.assert(
      fc.asyncProperty(
        fc.webUrl({
          validSchemes: ['http', 'https'],
          withQueryParameters: true,
          withFragments: true,
        }),
        async (url) => {
          expect(await policy(from('a', { kind: 'authorization', url }), {})).toBeUndefined();
        },
      ),
    );
    for (const url of ['https://bücher.example/straße', 'https://例え.jp/パス?q=é'])
      expect(await policy(from('a', { kind: 'authorization', url }), {})).toBeUndefined();
  });
});
