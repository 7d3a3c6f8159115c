/**
 * What the asker gets is what the person answered, whatever the form's fields are called: a
 * property over field names (names of Object.prototype, `__proto__`, unicode, the empty name). One
 * host asks a form with those names, the other answers every field through the store (PGlite,
 * jsonb in between), and the asker's Answer carries every field with its value.
 */
import { accept, type Request } from '@waitfor/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from './__fixtures__/fleet';
import { drivers } from './__fixtures__/fleet';
import { entriesOf, own } from '../../core/src/__fixtures__/ownRecords';

let fleet: Fleet;
beforeAll(async () => {
  fleet = await drivers.pglite({ pollMs: 0 });
});
afterAll(async () => {
  await fleet?.close();
});

const fieldName = fc.oneof(
  fc.constantFrom('__proto__', '', 'prototype', ...Object.getOwnPropertyNames(Object.prototype)),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);
const fieldNames = fc.uniqueArray(fieldName, { minLength: 1, maxLength: 5 });

describe('field names through the store', () => {
  it('every field answered on one host arrives in the Answer on the other', async () => {
    const asker = await fleet.a.inbox('fields');
    const answerer = await fleet.b.inbox('fields');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fieldNames, async (names) => {
        run += 1;
        const request: Request = {
          id: `form-${run}`,
          kind: 'input',
          prompt: 'Fill in every field',
          data: {
            schema: {
              type: 'object',
              properties: own(names.map((name) => [name, { type: 'string' }])),
              required: names,
            },
          },
        };
        const answered = asker.waitFor(request);
        await expect.poll(() => answerer.get(request.id)?.id).toBe(request.id);
        // The form as the other host reads it back has every field…
        const shown = (answerer.get(request.id)!.data!.schema as { properties: object }).properties;
        expect(Object.getOwnPropertyNames(shown).sort()).toEqual([...names].sort());
        const data = own(names.map((name, index) => [name, `value ${index}`]));
        expect(await answerer.submit(accept(request, data))).toBe(true);
        // …and the asker's Answer every value.
        const answer = await answered;
        expect(answer.ok).toBe(true);
        expect(entriesOf(answer.data)).toEqual(entriesOf(data));
      }),
      { numRuns: 30 },
    );
  });
});
