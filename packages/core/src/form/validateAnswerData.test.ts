import { describe, expect, it } from 'vitest';
import { validateAnswerData, validateFormAnswer } from '@waitfor/core/form';

const schema = {
  type: 'object',
  properties: {
    plan: { type: 'string', enum: ['free', 'pro'], default: 'free' },
    seats: { type: 'integer', minimum: 1, default: 1 },
    note: { type: 'string', default: 'none' },
  },
  required: ['plan', 'seats'],
};

describe('validateAnswerData', () => {
  it('takes the defaults for an accept without data (undefined or null)', () => {
    const defaults = { ok: true, value: { plan: 'free', seats: 1, note: 'none' } };
    expect(validateAnswerData(schema, undefined)).toEqual(defaults);
    expect(validateAnswerData(schema, null)).toEqual(defaults);
  });

  it('takes data as given: a required field left out is Required. even with a default', () => {
    expect(validateAnswerData(schema, { plan: 'pro' })).toEqual({
      ok: false,
      errors: { seats: 'Required.' },
    });
    // The looser rule would have filled it in.
    expect(validateFormAnswer(schema, { plan: 'pro' }).ok).toBe(true);
  });

  it('leaves an optional field left out unfilled, and treats an empty object as given', () => {
    expect(validateAnswerData(schema, { plan: 'pro', seats: '3' })).toEqual({
      ok: true,
      value: { plan: 'pro', seats: 3 },
    });
    expect(validateAnswerData(schema, {})).toEqual({
      ok: false,
      errors: { plan: 'Required.', seats: 'Required.' },
    });
  });

  it('matches validateFormAnswer with { defaults: false } for any data, and refuses a non-object', () => {
    for (const data of [{ plan: 'pro', seats: 0 }, { plan: 'x', extra: 1 }, { seats: null }]) {
      expect(validateAnswerData(schema, data)).toEqual(
        validateFormAnswer(schema, data, { defaults: false }),
      );
    }
    expect(validateAnswerData(schema, 'pro')).toEqual({
      ok: false,
      errors: { '': 'Expected an object of field values.' },
    });
  });

  it('checks a raw schema first', () => {
    expect(() => validateAnswerData({ type: 'array' }, undefined)).toThrow(
      expect.objectContaining({ code: 'invalid_schema' }),
    );
  });
});
