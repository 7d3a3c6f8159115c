import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WaitforError } from '@waitfor/core';
import { formFields, parseFormSchema, validateFormAnswer } from '@waitfor/core/form';
import type { FormValue } from '@waitfor/core/form';

/** A property schema together with an arbitrary of values that are valid for it. */
type Property = { schema: Record<string, unknown>; valid: fc.Arbitrary<FormValue> };

const day = 86_400_000;
const anyDate = fc.date({
  min: new Date(-62_135_596_800_000),
  max: new Date(253_402_300_799_000),
  noInvalidDate: true,
});

const stringProperty: fc.Arbitrary<Property> = fc.oneof(
  fc.tuple(fc.nat(4), fc.integer({ min: 1, max: 8 })).map(([minLength, extra]) => ({
    schema: { type: 'string', minLength, maxLength: minLength + extra },
    // Non-empty: an empty string means "no answer" and is dropped from optional fields.
    valid: fc.string({
      unit: 'binary',
      minLength: Math.max(1, minLength),
      maxLength: minLength + extra,
    }),
  })),
  // Addresses servers accept: RFC 5322 allows more ("!@a.aa") than zod's email check takes.
  fc.constant({
    schema: { type: 'string', format: 'email' },
    valid: fc.emailAddress().filter((email) => z.email().safeParse(email).success),
  }),
  fc.constant({
    schema: { type: 'string', format: 'uri' },
    valid: fc.webUrl({ withQueryParameters: true, withFragments: true }),
  }),
  fc.constant({
    schema: { type: 'string', format: 'date' },
    valid: anyDate.map((date) => date.toISOString().slice(0, 10)),
  }),
  fc.constant({
    schema: { type: 'string', format: 'date-time' },
    valid: anyDate.map((date) => date.toISOString()),
  }),
);

const numberProperty: fc.Arbitrary<Property> = fc.oneof(
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.nat(1000)).map(([minimum, span]) => ({
    schema: { type: 'integer', minimum, maximum: minimum + span },
    valid: fc.integer({ min: minimum, max: minimum + span }),
  })),
  fc
    .tuple(
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      fc.double({ min: 0, max: 1e6, noNaN: true }),
    )
    .map(([minimum, span]) => ({
      schema: { type: 'number', minimum, maximum: minimum + span },
      valid: fc.double({ min: minimum, max: minimum + span, noNaN: true }),
    })),
  fc.constant({
    schema: { type: 'number' },
    valid: fc.double({ noNaN: true, noDefaultInfinity: true }),
  }),
  fc.constant({ schema: { type: 'boolean' }, valid: fc.boolean() }),
);

const choices = fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 6 });
const titled = (values: string[]) =>
  values.map((value, index) => ({ const: value, title: `Choice ${index}` }));

const selectProperty: fc.Arbitrary<Property> = fc
  .tuple(choices, fc.constantFrom('enum', 'oneOf', 'enumNames'))
  .map(([values, shape]) => ({
    schema:
      shape === 'oneOf'
        ? { type: 'string', oneOf: titled(values) }
        : {
            type: 'string',
            enum: values,
            ...(shape === 'enumNames'
              ? { enumNames: values.map((value) => value.toUpperCase()) }
              : {}),
          },
    valid: fc.constantFrom(...values),
  }));

const multiSelectProperty: fc.Arbitrary<Property> = choices.chain((values) =>
  fc
    .tuple(
      fc.integer({ min: 0, max: values.length }),
      fc.nat(3),
      fc.constantFrom('enum', 'anyOf', 'oneOf'),
    )
    .map(([minItems, extra, shape]) => {
      const maxItems = Math.min(values.length, minItems + extra);
      return {
        schema: {
          type: 'array',
          minItems,
          maxItems,
          items: shape === 'enum' ? { type: 'string', enum: values } : { [shape]: titled(values) },
        },
        valid: fc.uniqueArray(fc.constantFrom(...values), {
          minLength: minItems,
          maxLength: maxItems,
        }) as fc.Arbitrary<FormValue>,
      };
    }),
);

/** A property, maybe with a default drawn from its valid values. */
const property: fc.Arbitrary<Property> = fc
  .oneof(stringProperty, numberProperty, selectProperty, multiSelectProperty)
  .chain((base) =>
    fc
      .option(base.valid, { nil: undefined })
      .map((fallback) =>
        fallback === undefined ? base : { ...base, schema: { ...base.schema, default: fallback } },
      ),
  );

/** A valid schema, its properties, and which of them are required. */
const form = fc
  .dictionary(fc.string({ minLength: 1, maxLength: 8 }), property, { minKeys: 0, maxKeys: 8 })
  .chain((properties) =>
    fc.subarray(Object.keys(properties)).map((required) => ({
      properties,
      required,
      schema: {
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(properties).map(([name, item]) => [name, item.schema]),
        ),
        required,
      },
    })),
  );

const integerForm = { type: 'object', properties: { count: { type: 'integer' } } };
const outOfRange = 'Enter a whole number between -9007199254740991 and 9007199254740991.';
const lossy = 'Enter a number with fewer digits: this one cannot be kept exactly.';

describe('form schema properties', () => {
  it('accepts every generated valid schema', () => {
    fc.assert(
      fc.property(form, ({ schema }) => {
        expect(formFields(schema)).toHaveLength(Object.keys(schema.properties).length);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps data generated to be valid unchanged, apart from defaults filling omitted fields', () => {
    const formWithData = form.chain((generated) =>
      fc
        .tuple(
          ...Object.entries(generated.properties).map(([name, item]) =>
            generated.required.includes(name)
              ? item.valid.map((value) => [name, value] as const)
              : fc.option(
                  item.valid.map((value) => [name, value] as const),
                  { nil: undefined },
                ),
          ),
        )
        .map((entries) => ({
          ...generated,
          data: Object.fromEntries(entries.filter((entry) => entry !== undefined)),
        })),
    );
    fc.assert(
      fc.property(formWithData, ({ schema, properties, data }) => {
        const expected: Record<string, unknown> = { ...data };
        for (const [name, item] of Object.entries(properties)) {
          if (!Object.hasOwn(data, name) && item.schema.default !== undefined)
            expected[name] = item.schema.default;
        }
        expect(validateFormAnswer(schema, data)).toEqual({ ok: true, value: expected });
      }),
      { numRuns: 500 },
    );
  });

  it('never crashes on random data for a valid schema', () => {
    fc.assert(
      fc.property(
        form.chain((generated) =>
          fc
            .oneof(
              fc.anything(),
              fc.dictionary(
                fc.constantFrom(...Object.keys(generated.properties), 'extra'),
                fc.anything(),
              ),
            )
            .map((data) => ({ schema: generated.schema, data })),
        ),
        ({ schema, data }) => {
          const result = validateFormAnswer(schema, data);
          if (result.ok) expect(typeof result.value).toBe('object');
          else
            for (const message of Object.values(result.errors))
              expect(typeof message).toBe('string');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws anything but WaitforError on random schemas', () => {
    const keyword = fc.constantFrom(
      'type',
      'properties',
      'required',
      'enum',
      'oneOf',
      'anyOf',
      'items',
      'default',
      'minimum',
      'minLength',
      'format',
    );
    const shaped = fc.record({
      type: fc.oneof(fc.constant('object'), fc.anything()),
      properties: fc.dictionary(
        fc.string(),
        fc.oneof(
          property.map((item) => item.schema),
          fc.dictionary(keyword, fc.anything()),
          fc.anything(),
        ),
      ),
      required: fc.oneof(fc.array(fc.string()), fc.anything()),
    });
    fc.assert(
      fc.property(fc.oneof(fc.anything(), shaped), (value) => {
        try {
          parseFormSchema(value);
        } catch (error) {
          expect(WaitforError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses every integer beyond the safe range, as text or as a number, never rounding it', () => {
    const beyond = fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.boolean())
      .map(
        ([excess, negative]) => (BigInt(Number.MAX_SAFE_INTEGER) + excess) * (negative ? -1n : 1n),
      );
    fc.assert(
      fc.property(
        beyond,
        fc.constantFrom('', '+'),
        fc.constantFrom('', ' '),
        (integer, plus, pad) => {
          const text = `${pad}${integer < 0n ? '' : plus}${integer}${pad}`;
          for (const input of [text, Number(integer)]) {
            expect(validateFormAnswer(integerForm, { count: input })).toEqual({
              ok: false,
              errors: { count: outOfRange },
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('converts every safe integer text to exactly that integer', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (integer) => {
        expect(validateFormAnswer(integerForm, { count: String(integer) })).toEqual({
          ok: true,
          value: { count: integer },
        });
      }),
      { numRuns: 300 },
    );
  });

  it('converts number text only when no digit is lost', () => {
    const form = { type: 'object', properties: { amount: { type: 'number' } } };
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
    // Every number written out (shortest or exponential) converts back to itself.
    fc.assert(
      fc.property(finite, (number) => {
        for (const text of [String(number), number.toExponential(), ` ${number} `]) {
          const result = validateFormAnswer(form, { amount: text });
          expect(result).toEqual({ ok: true, value: { amount: Number(text) } });
          expect(Number(text)).toBe(number === 0 ? 0 : number);
        }
      }),
      { numRuns: 500 },
    );
    // An integer text converts when the number it becomes is written (as in JSON) with the same
    // value, e.g. "2384185791015625000" (held as …5216, written as …5000); otherwise it is refused.
    const written = (number: number): bigint => {
      const [mantissa, exponent = '0'] = String(number).split('e');
      const [whole, fraction = ''] = mantissa!.split('.');
      return BigInt(whole! + fraction) * 10n ** BigInt(Number(exponent) - fraction.length);
    };
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), (integer) => {
        const result = validateFormAnswer(form, { amount: String(integer) });
        expect(result).toEqual(
          written(Number(integer)) === integer
            ? { ok: true, value: { amount: Number(integer) } }
            : { ok: false, errors: { amount: lossy } },
        );
      }),
      { numRuns: 500 },
    );
    // A number keeps at most 17 significant digits, so text with more is always refused.
    const digit = fc.constantFrom(...'0123456789');
    const longText = fc
      .tuple(
        fc.constantFrom(...'123456789'),
        fc.array(digit, { minLength: 16, maxLength: 40 }),
        fc.constantFrom(...'123456789'),
        fc.nat(60),
        fc.integer({ min: -400, max: 400 }),
      )
      .map(([first, middle, last, dot, exponent]) => {
        const digits = `${first}${middle.join('')}${last}`;
        const at = Math.min(dot, digits.length);
        return `${digits.slice(0, at)}.${digits.slice(at)}e${exponent}`;
      });
    fc.assert(
      fc.property(longText, (text) => {
        expect(validateFormAnswer(form, { amount: text })).toMatchObject({ ok: false });
      }),
      { numRuns: 500 },
    );
  });

  it('accepts every generated absolute URI and refuses it with any character RFC 3986 forbids', () => {
    const uriForm = { type: 'object', properties: { link: { type: 'string', format: 'uri' } } };
    const scheme = fc.stringMatching(/^[a-zA-Z][a-zA-Z\d+.-]{0,8}$/);
    const web = scheme.chain((name) =>
      fc.webUrl({
        validSchemes: [name],
        withQueryParameters: true,
        withFragments: true,
        authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true },
      }),
    );
    // path-rootless, as in urn:isbn:… or mailto:…: a first segment that is not empty. Not with a
    // scheme the WHATWG parser treats as special (http, ws, file …): it reads "ws:x" as host x, so
    // "ws:%00" is a host that decodes to NUL, which zod's url check (and so this one) refuses.
    const special = new Set(['ftp', 'file', 'http', 'https', 'ws', 'wss']);
    const rootless = fc
      .tuple(
        scheme.filter((name) => !special.has(name.toLowerCase())),
        fc.webSegment().filter((segment) => segment !== ''),
        fc.array(fc.webSegment(), { maxLength: 3 }),
        fc.option(fc.webQueryParameters(), { nil: undefined }),
        fc.option(fc.webFragments(), { nil: undefined }),
      )
      .map(
        ([name, first, rest, query, fragment]) =>
          `${name}:${[first, ...rest].join('/')}${query === undefined ? '' : `?${query}`}${
            fragment === undefined ? '' : `#${fragment}`
          }`,
      );
    const uri = fc.oneof(web, rootless);
    fc.assert(
      fc.property(uri, (link) => {
        expect(validateFormAnswer(uriForm, { link })).toEqual({ ok: true, value: { link } });
      }),
      { numRuns: 500 },
    );
    const forbidden = fc.oneof(
      fc.constantFrom(...' "<>\\^`{|}'),
      fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
      fc.constant('\x7f'),
      fc.integer({ min: 0x80, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
    );
    fc.assert(
      fc.property(uri, forbidden, fc.nat(), (link, character, position) => {
        const after = link.indexOf(':') + 1 + (position % (link.length - link.indexOf(':')));
        const spoiled = `${link.slice(0, after)}${character}${link.slice(after)}`;
        expect(validateFormAnswer(uriForm, { link: spoiled })).toEqual({
          ok: false,
          errors: { link: 'Enter a URI such as https://example.com.' },
        });
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips date-times of every day through the format check', () => {
    fc.assert(
      fc.property(fc.integer({ min: -700_000, max: 2_900_000 }), (offset) => {
        const value = new Date(offset * day).toISOString();
        const result = validateFormAnswer(
          { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
          { at: value },
        );
        expect(result).toEqual({ ok: true, value: { at: value } });
      }),
    );
  });
});
