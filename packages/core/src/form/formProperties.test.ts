import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
  fc.constant({ schema: { type: 'string', format: 'email' }, valid: fc.emailAddress() }),
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
