import { describe, expect, it } from 'vitest';
import { formFields, parseFormSchema, validateFormAnswer } from '@waitfor/core/form';

// Inputs far beyond the default limits (raised here, so the limits are not what refuses them),
// scaled so that a check comparing every item with every other would block for minutes (each
// makes 5·10⁹ comparisons or more; 3·10⁸ took 11 s), while a linear one takes about a second. The
// deadline of each test catches a hang; nothing is timed.
const limits = {
  fields: Infinity,
  choices: Infinity,
  stringLength: Infinity,
  schemaSize: Infinity,
};
const DEADLINE_MS = 30_000;

const names = (count: number): string[] => Array.from({ length: count }, (_, index) => `c${index}`);

describe('form checks stay linear', () => {
  it(
    'checks a multi-select default that lists all of 100,000 choices',
    () => {
      const choices = names(100_000);
      const schema = {
        type: 'object',
        properties: { pick: { type: 'array', items: { enum: choices }, default: choices } },
      };
      const [field] = formFields(parseFormSchema(schema, { limits }));
      expect(field?.default).toHaveLength(100_000);
      const answer = validateFormAnswer(parseFormSchema(schema, { limits }), { pick: choices });
      expect(answer.ok).toBe(true);
      const doubled = validateFormAnswer(parseFormSchema(schema, { limits }), {
        pick: [...choices, 'c0'],
      });
      expect(doubled).toEqual({ ok: false, errors: { pick: 'Choose each option once.' } });
    },
    DEADLINE_MS,
  );

  it(
    'matches a required list of 1,000,000 names against 50,000 properties',
    () => {
      // Each property that is not required was looked for in the whole list.
      const properties = names(50_000);
      const required = new Array<string>(1_000_000).fill('c0');
      const schema = {
        type: 'object',
        properties: Object.fromEntries(properties.map((name) => [name, { type: 'boolean' }])),
        required,
      };
      const fields = formFields(parseFormSchema(schema, { limits }));
      expect(fields.filter((field) => field.required).map((field) => field.name)).toEqual(['c0']);
    },
    DEADLINE_MS,
  );

  it(
    'looks for 100,000 unknown keys among 100,000 fields',
    () => {
      const fieldNames = names(100_000);
      const schema = parseFormSchema(
        {
          type: 'object',
          properties: Object.fromEntries(fieldNames.map((name) => [name, { type: 'boolean' }])),
        },
        { limits },
      );
      const data = Object.fromEntries(fieldNames.map((name) => [name, true]));
      expect(validateFormAnswer(schema, data).ok).toBe(true);
      const unknown = Object.fromEntries(fieldNames.map((name) => [`x${name}`, true]));
      const result = validateFormAnswer(schema, unknown);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(Object.keys(result.errors)).toHaveLength(100_000);
    },
    DEADLINE_MS,
  );
});
