/**
 * What is sent is what the person answered, whatever the fields are called: a property over field
 * names (names of Object.prototype, `__proto__`, unicode, the empty name) proves every answered
 * field arrives, through `ask` (zod) and through `runTool` (a form Request of the host's tool). The
 * one name zod cannot carry, `__proto__`, is refused when a zod question is defined, with
 * `invalid_schema` naming it; a plain form carries it.
 */
import { accept, WaitforError, type Request } from '@waitfor/core';
import { pending, runTool, type ToolContext } from '@waitfor/core/tools';
import { ask, defineQuestion } from '@waitfor/core/zod';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { entriesOf, own } from '../__fixtures__/ownRecords';

const inherited = Object.getOwnPropertyNames(Object.prototype);
const fieldName = fc.oneof(
  fc.constantFrom('__proto__', '', 'prototype', 'then', 'length', '0', ...inherited),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const fieldNames = fc.uniqueArray(fieldName, { minLength: 1, maxLength: 6 });

/** The person's answer: every field filled with a value of its own. */
const answerOf = (names: string[]) => own(names.map((name, index) => [name, `value ${index}`]));

describe('every answered field arrives, whatever its name', () => {
  it('zod ask: each field of the answer is in the data, or the name is refused at definition', async () => {
    await fc.assert(
      fc.asyncProperty(fieldNames, async (names) => {
        const schema = z.object(own(names.map((name) => [name, z.string()])));
        let question;
        try {
          question = defineQuestion({ prompt: 'Fill in', schema });
        } catch (error) {
          expect(WaitforError.isInstance(error) && error.code).toBe('invalid_schema');
          // Only the one name zod cannot carry is refused.
          expect((error as WaitforError).path).toBe('__proto__');
          return;
        }
        // `__proto__` would be dropped by zod's parser: it must have been refused above.
        expect(names).not.toContain('__proto__');
        expect(Object.getOwnPropertyNames(question.form.properties).sort()).toEqual(
          [...names].sort(),
        );
        const result = await ask(
          async (request: Request) => accept(request, answerOf(names)),
          question,
        );
        expect(result.ok).toBe(true);
        expect(entriesOf(result.ok && result.data)).toEqual(entriesOf(answerOf(names)));
      }),
      { numRuns: 300 },
    );
  });

  it('names `__proto__` when refusing it', () => {
    const schema = z.object({ ['__proto__']: z.string(), constructor: z.string() });
    expect(() => defineQuestion({ prompt: 'Who?', schema })).toThrow(
      expect.objectContaining({ code: 'invalid_schema', path: '__proto__' }),
    );
  });

  it('runTool: each field of the answer reaches the tool, `__proto__` too', async () => {
    await fc.assert(
      fc.asyncProperty(fieldNames, async (names) => {
        const form: Request = {
          id: 'fields',
          kind: 'input',
          prompt: 'Fill in',
          data: {
            schema: {
              type: 'object',
              properties: own(names.map((name) => [name, { type: 'string' }])),
              required: names,
            },
          },
        };
        const tool = (_args: void, context: ToolContext) =>
          context.state === undefined ? pending({ form }, 'asked') : context.answers['form'];
        const answer = await runTool(tool, undefined, {
          waitFor: async (request) => accept(request, answerOf(names)),
        });
        expect(answer?.ok).toBe(true);
        expect(entriesOf(answer?.data)).toEqual(entriesOf(answerOf(names)));
      }),
      { numRuns: 300 },
    );
  });
});
