import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateFormAnswer } from '@waitfor/core/form';

// What servers run on an answer: ajv-formats in full mode (the MCP SDKs' JSON Schema validator)
// and zod 4. For uri, zod's check is z.url(): z.toJSONSchema writes it as format "uri".
const ajv = new Ajv();
addFormats(ajv, { mode: 'full' });

type Format = 'email' | 'uri' | 'date' | 'date-time';

const servers: Record<Format, { ajv: (value: string) => boolean; zod: z.ZodType }> = {
  email: { ajv: ajv.compile({ type: 'string', format: 'email' }), zod: z.email() },
  uri: { ajv: ajv.compile({ type: 'string', format: 'uri' }), zod: z.url() },
  date: { ajv: ajv.compile({ type: 'string', format: 'date' }), zod: z.iso.date() },
  'date-time': {
    ajv: ajv.compile({ type: 'string', format: 'date-time' }),
    // JSON Schema's date-time requires an offset or Z and allows any offset.
    zod: z.iso.datetime({ offset: true }),
  },
};

// Required, so an empty string (no answer to an optional field) counts as refused.
const ours = (format: Format, value: string): boolean =>
  validateFormAnswer(
    { type: 'object', properties: { field: { type: 'string', format } }, required: ['field'] },
    { field: value },
  ).ok;

const serversAccept = (format: Format, value: string): boolean =>
  servers[format].ajv(value) && servers[format].zod.safeParse(value).success;

/** Strings of up to `maxLength` characters drawn from `alphabet`. */
const from = (alphabet: string, maxLength = 24): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...alphabet), maxLength });

/** `base` with up to three characters of `alphabet` inserted, replaced or removed anywhere. */
const mutated = (base: fc.Arbitrary<string>, alphabet: string): fc.Arbitrary<string> =>
  fc
    .tuple(
      base,
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(...alphabet), fc.nat(2)), { maxLength: 3 }),
    )
    .map(([text, edits]) =>
      edits.reduce((value, [at, character, kind]) => {
        const index = at % (value.length + 1);
        if (kind === 0) return value.slice(0, index) + character + value.slice(index);
        if (kind === 1) return value.slice(0, index) + character + value.slice(index + 1);
        return value.slice(0, index) + value.slice(index + 1);
      }, text),
    );

const pick = (...parts: string[]) => fc.constantFrom(...parts);
const digits = (count: number) => from('0123456789', count).filter((text) => text.length === count);
const twoDigits = fc.integer({ min: 0, max: 99 }).map((value) => String(value).padStart(2, '0'));

// Near-valid dates: every month 00–13 and day 00–32, leap and non-leap years, centuries.
const nearDate = fc
  .tuple(
    fc.oneof(digits(4), pick('2024', '2023', '1900', '2000', '2100', '0000', '9999', '0004')),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
  )
  .map(
    ([year, month, day]) =>
      `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
  );

const nearTime = fc
  .tuple(
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.oneof(fc.integer({ min: 0, max: 61 }), fc.constant(60)),
    pick('', '.5', '.123456789', '.'),
  )
  .map(
    ([hour, minute, second, fraction]) =>
      [hour, minute, second].map((part) => String(part).padStart(2, '0')).join(':') + fraction,
  );

const offset = fc.oneof(
  pick('Z', 'z', '+00:00', '-00:00', '+23:59', '-23:59', '+24:00', '+05:60', '+0530', '+05', ''),
  fc.tuple(pick('+', '-'), twoDigits, pick(':', ''), twoDigits).map((parts) => parts.join('')),
);

const nearDateTime = fc.oneof(
  fc.tuple(nearDate, pick('T', 't', ' ', '_'), nearTime, offset).map((parts) => parts.join('')),
  // Leap seconds, which ajv takes only at 23:59:60 UTC.
  fc
    .tuple(nearDate, pick('23:59:60', '00:59:60', '23:59:60.5', '05:29:60'), offset)
    .map(([date, time, zone]) => `${date}T${time}${zone}`),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
);

// Addresses of the shape people type: dotted runs of letters, digits and _+- at a plain domain.
const ordinaryEmail = fc
  .tuple(
    fc.array(
      from('abcxyz019_+-', 6).filter((part) => /^[\w+-]+$/.test(part)),
      {
        minLength: 1,
        maxLength: 3,
      },
    ),
    fc.domain().filter((domain) => /\.[a-z]{2,}$/.test(domain) && !/(^|\.)-|-(\.|$)/.test(domain)),
  )
  .map(([local, domain]) => `${local.join('.')}@${domain}`);

const urlAlphabet = 'aZ09:/?#[]@%.-_~!$&\'()*+,;=" <>\\^`{|}\u00e9';

const generated: Record<Format, fc.Arbitrary<string>> = {
  email: fc.oneof(
    fc.emailAddress(),
    mutated(ordinaryEmail, "a.-_@+'0Z"),
    from("a.-_@+'0Z"),
    mutated(fc.emailAddress(), "a.-_@+'!#0 "),
    fc
      .tuple(from("a.-_+'0", 8), from('a.-_0', 12), pick('com', 'c', 'co1', 'x-', ''))
      .map(([local, domain, top]) => `${local}@${domain}.${top}`),
  ),
  uri: fc.oneof(
    fc.webUrl({ withQueryParameters: true, withFragments: true }),
    fc.webUrl({
      validSchemes: ['http', 'https', 'ftp', 'ws', 'file', 'urn', 'a+b.c-d'],
      authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true },
      withQueryParameters: true,
      withFragments: true,
    }),
    from(urlAlphabet),
    mutated(fc.webUrl({ withQueryParameters: true, withFragments: true }), urlAlphabet),
    fc
      .tuple(pick('http:', 'https:', 'a:', 'urn:', 'file:', 'mailto:'), from(urlAlphabet))
      .map(([scheme, rest]) => scheme + rest),
    fc
      .tuple(
        pick('http://', 'https://', 'ftp://', 'x://'),
        from('a0-.%_~:@[]', 10),
        from('/?#a%', 6),
      )
      .map((parts) => parts.join('')),
  ),
  date: fc.oneof(nearDate, mutated(nearDate, '0-9 T'), from('0123-', 12)),
  'date-time': fc.oneof(nearDateTime, mutated(nearDateTime, '0:-+.TZtz '), from('012:-T+.Z', 28)),
};

describe.each(['email', 'uri', 'date', 'date-time'] as const)('format %s', (format) => {
  it('accepts nothing that ajv-formats (full) or zod refuses', () => {
    fc.assert(
      fc.property(generated[format], (value) => {
        if (ours(format, value)) expect(serversAccept(format, value), value).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('formats refuse what a server would refuse', () => {
  it.each<[Format, string]>([
    ['email', 'ada@-x.com'],
    ['email', 'a..b@example.com'],
    ['email', '.ada@example.com'],
    ['email', 'ada@ex_ample.com'],
    ['email', '!ada@example.com'],
    ['email', 'ada@example.c0m'],
    ['uri', 'http://'],
    ['uri', 'http://a:99999/'],
    ['uri', 'a:b[c'],
    ['date', '2024-02-30'],
    ['date', '-000300-02'],
    ['date-time', '2026-01-31t09:00:00z'],
    ['date-time', '2016-12-31T23:59:60Z'],
    ['date-time', '2026-01-31T09:00:00+0530'],
  ])('%s: %s', (format, value) => {
    expect(serversAccept(format, value)).toBe(false);
    expect(ours(format, value)).toBe(false);
  });
});

describe('formats keep accepting ordinary values', () => {
  it.each<[Format, string]>([
    ['email', 'ada@example.com'],
    ['email', 'Ada.Lovelace+forms@mail.example.co.uk'],
    ['email', "o'brien@example.ie"],
    ['email', 'first_last-1@sub-domain.example.org'],
    ['uri', 'https://example.com'],
    ['uri', 'https://example.com/path/to?q=1&r=a%20b#section-2'],
    ['uri', 'http://localhost:3000/'],
    ['uri', 'http://127.0.0.1:8080/api'],
    ['uri', 'http://[::1]:8080/a?b=c#d'],
    ['uri', 'https://user:secret@example.com/'],
    ['uri', 'urn:isbn:0451450523'],
    ['uri', 'mailto:ada@example.com'],
    ['uri', 'file:///etc/hosts'],
    ['date', '2026-01-31'],
    ['date', '2024-02-29'],
    ['date', '2000-02-29'],
    ['date-time', '2026-01-31T09:00:00Z'],
    ['date-time', '2026-01-31T09:00:00.123Z'],
    ['date-time', '2026-01-31T09:00:00+05:30'],
    ['date-time', '2026-01-31T23:59:59.999999-08:00'],
  ])('%s: %s', (format, value) => {
    expect(serversAccept(format, value)).toBe(true);
    expect(ours(format, value)).toBe(true);
  });

  it.each<[Format, fc.Arbitrary<string>]>([
    ['email', ordinaryEmail],
    [
      'uri',
      fc.webUrl({
        validSchemes: ['http', 'https'],
        withQueryParameters: true,
        withFragments: true,
      }),
    ],
    [
      'date',
      fc
        .date({ noInvalidDate: true, min: new Date(0), max: new Date(253402300799999) })
        .map((date) => date.toISOString().slice(0, 10)),
    ],
    [
      'date-time',
      fc
        .date({ noInvalidDate: true, min: new Date(0), max: new Date(253402300799999) })
        .map((date) => date.toISOString()),
    ],
  ])('%s: accepts generated values both servers accept', (format, valid) => {
    fc.assert(
      fc.property(valid, (value) => {
        expect(serversAccept(format, value), value).toBe(true);
        expect(ours(format, value), value).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('checks a long hostile string in linear time', () => {
    // Each would backtrack quadratically in a careless pattern; the deadline catches a hang.
    const long = 'a'.repeat(200_000);
    expect(ours('email', `${long}!`)).toBe(false);
    expect(ours('email', `a@${'a-'.repeat(100_000)}`)).toBe(false);
    expect(ours('email', `${'a.'.repeat(100_000)}@`)).toBe(false);
    expect(ours('uri', `http://${'a:'.repeat(100_000)}`)).toBe(false);
    expect(ours('uri', `a:${'%a'.repeat(100_000)}`)).toBe(false);
    expect(ours('date-time', `2026-01-01T00:00:00.${'1'.repeat(200_000)}x`)).toBe(false);
  });
});
