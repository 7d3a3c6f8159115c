/**
 * Typed questions: a zod object schema becomes the elicitation form subset at definition, the
 * answer is checked by the form's rules and the zod schema, and comes back typed.
 */
import {
  accept,
  decline,
  WaitforError,
  type Answer,
  type Request,
  type WaitFor,
} from '@waitfor/core';
import { pending, runTool } from '@waitfor/core/tools';
import { ask, askUrl, defineQuestion, isQuestion } from '@waitfor/core/zod';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';

/** A person who fills in `answers` in turn (the last one again and again) and records the Requests. */
function person(...answers: Array<Record<string, unknown> | 'decline'>) {
  const asked: Request[] = [];
  const waitFor: WaitFor = async (request) => {
    asked.push(request);
    const answer = answers[Math.min(asked.length, answers.length) - 1]!;
    return answer === 'decline' ? decline(request) : accept(request, answer);
  };
  return { asked, waitFor };
}

/** The form property a schema field becomes. */
const propertyOf = (schema: z.ZodObject, name: string) =>
  defineQuestion({ prompt: 'Q', schema }).form.properties[name];

describe('each supported field kind round-trips: schema → form Request → answer → typed data', () => {
  const cases: Array<[string, z.ZodType, Record<string, unknown>, unknown, unknown]> = [
    ['string', z.string(), { type: 'string' }, 'Ada', 'Ada'],
    [
      'string with min/max length',
      z.string().min(2).max(4),
      { type: 'string', minLength: 2, maxLength: 4 },
      'abc',
      'abc',
    ],
    ['email', z.email(), { type: 'string', format: 'email' }, 'ada@example.com', 'ada@example.com'],
    [
      'uri',
      z.url(),
      { type: 'string', format: 'uri' },
      'https://example.com/a',
      'https://example.com/a',
    ],
    ['date', z.iso.date(), { type: 'string', format: 'date' }, '2026-12-01', '2026-12-01'],
    [
      'date-time',
      z.iso.datetime(),
      { type: 'string', format: 'date-time' },
      '2026-12-01T10:00:00Z',
      '2026-12-01T10:00:00Z',
    ],
    [
      'number with bounds',
      z.number().min(0.5).max(9.5),
      { type: 'number', minimum: 0.5, maximum: 9.5 },
      '2.5',
      2.5,
    ],
    [
      'integer with bounds',
      z.int().min(1).max(8),
      { type: 'integer', minimum: 1, maximum: 8 },
      '3',
      3,
    ],
    ['boolean', z.boolean(), { type: 'boolean' }, 'true', true],
    [
      'enum',
      z.enum(['red', 'green']),
      { type: 'string', enum: ['red', 'green'] },
      'green',
      'green',
    ],
    [
      'literal union with titles',
      z.union([z.literal('s').meta({ title: 'Small' }), z.literal('l').meta({ title: 'Large' })]),
      {
        type: 'string',
        oneOf: [
          { const: 's', title: 'Small' },
          { const: 'l', title: 'Large' },
        ],
      },
      'l',
      'l',
    ],
    ['a single literal', z.literal('yes'), { type: 'string', enum: ['yes'] }, 'yes', 'yes'],
    [
      'array of enums (multi-select)',
      z
        .array(z.enum(['a', 'b', 'c']))
        .min(1)
        .max(2),
      { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
      ['a', 'c'],
      ['a', 'c'],
    ],
    [
      'array of titled literals',
      z.array(z.union([z.literal('a').meta({ title: 'A' }), z.literal('b').meta({ title: 'B' })])),
      {
        type: 'array',
        items: {
          anyOf: [
            { const: 'a', title: 'A' },
            { const: 'b', title: 'B' },
          ],
        },
      },
      'b',
      ['b'],
    ],
  ];

  it.each(cases)('%s', async (_name, field, property, given, typed) => {
    const schema = z.object({ field });
    expect(propertyOf(schema, 'field')).toMatchObject(property);
    const { asked, waitFor } = person({ field: given });
    const result = await ask(waitFor, { prompt: 'Fill in', schema });
    expect(result).toEqual({ ok: true, data: { field: typed } });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: 'input', prompt: 'Fill in' });
    expect(asked[0]!.data?.schema).toMatchObject({
      type: 'object',
      properties: { field: property },
      required: ['field'],
    });
  });

  it('optional fields are not required and may be left out', async () => {
    const schema = z.object({ nick: z.string().optional(), name: z.string() });
    const question = defineQuestion({ prompt: 'Q', schema });
    expect(question.form.required).toEqual(['name']);
    await expect(ask(person({ name: 'Ada' }).waitFor, question)).resolves.toEqual({
      ok: true,
      data: { name: 'Ada' },
    });
  });

  it('defaults are in the form and fill a field left out', async () => {
    const schema = z.object({
      seats: z.int().min(1).default(2),
      vegan: z.boolean().default(false),
    });
    const question = defineQuestion({ prompt: 'Q', schema });
    expect(question.form.required).toBeUndefined();
    expect(question.form.properties).toMatchObject({
      seats: { default: 2 },
      vegan: { default: false },
    });
    await expect(ask(person({ vegan: 'true' }).waitFor, question)).resolves.toEqual({
      ok: true,
      data: { seats: 2, vegan: true },
    });
  });

  it('titles and descriptions come from .meta and .describe, on fields and on the object', () => {
    const schema = z
      .object({
        email: z.email().meta({ title: 'Email', description: 'Where we write' }),
        age: z.int().describe('In years'),
      })
      .meta({ title: 'Contact', description: 'How to reach you' });
    const { form } = defineQuestion({ prompt: 'Q', schema });
    expect(form).toMatchObject({
      title: 'Contact',
      description: 'How to reach you',
      properties: {
        email: { title: 'Email', description: 'Where we write' },
        age: { description: 'In years' },
      },
    });
  });
});

describe('a schema outside the form subset is refused at definition, naming the field', () => {
  const cases: Array<[string, z.ZodType]> = [
    ['a nested object', z.object({ street: z.string() })],
    ['a record', z.record(z.string(), z.string())],
    ['a tuple', z.tuple([z.string(), z.string()])],
    ['a union of two types', z.union([z.string(), z.number()])],
    ['a nullable', z.string().nullable()],
    ['a date', z.date()],
    ['a bigint', z.bigint()],
    ['an array of free strings', z.array(z.string())],
    ['an array of objects', z.array(z.object({ a: z.string() }))],
    ['a number literal', z.literal(3)],
    ['a boolean literal', z.literal(true)],
    ['a union of number literals', z.union([z.literal(1), z.literal(2)])],
    ['a map', z.map(z.string(), z.string())],
    ['a union of objects', z.union([z.object({ a: z.string() }), z.object({ b: z.string() })])],
  ];
  it.each(cases)('%s', (_name, field) => {
    const define = () =>
      defineQuestion({ prompt: 'Q', schema: z.object({ fine: z.string(), 'odd.name': field }) });
    expect(define).toThrow(WaitforError);
    const error = (() => {
      try {
        define();
      } catch (caught) {
        return caught as WaitforError;
      }
    })()!;
    expect([error.code, error.path]).toEqual(['invalid_schema', 'odd.name']);
    expect(error.message).toContain('odd.name');
  });

  it('a schema that is no zod object', () => {
    expect(() => defineQuestion({ prompt: 'Q', schema: z.string() as never })).toThrow(
      expect.objectContaining({ code: 'invalid_schema', path: '' }),
    );
  });

  it('ask refuses it before asking anyone', async () => {
    const { asked, waitFor } = person({});
    await expect(
      ask(waitFor, { prompt: 'Q', schema: z.object({ at: z.date() }) }),
    ).rejects.toMatchObject({ code: 'invalid_schema', path: 'at' });
    expect(asked).toEqual([]);
  });
});

describe('ask', () => {
  const schema = z
    .object({
      password: z.string().min(4),
      repeat: z.string(),
      code: z.string().refine((value) => value.startsWith('W-'), 'Codes start with W-'),
    })
    .refine((value) => value.password === value.repeat, {
      message: 'The passwords differ',
      path: ['repeat'],
    });

  it('re-asks with the refinements’ messages in data.errors, the values and the attempt', async () => {
    const { asked, waitFor } = person(
      { password: 'secret', repeat: 'secrat', code: 'X-1' },
      { password: 'secret', repeat: 'secret', code: 'W-1' },
    );
    const result = await ask(waitFor, { prompt: 'Sign up', schema });
    expect(result).toEqual({
      ok: true,
      data: { password: 'secret', repeat: 'secret', code: 'W-1' },
    });
    expect(asked).toHaveLength(2);
    expect(asked[1]!.id).not.toBe(asked[0]!.id);
    expect(asked[1]!.data).toMatchObject({
      errors: { code: 'Codes start with W-' },
      values: { password: 'secret', repeat: 'secrat', code: 'X-1' },
      attempt: 2,
    });
  });

  it('shows an object refinement under its path once the fields pass', async () => {
    const { asked, waitFor } = person(
      { password: 'secret', repeat: 'secrat', code: 'W-1' },
      { password: 'secret', repeat: 'secret', code: 'W-1' },
    );
    await ask(waitFor, { prompt: 'Sign up', schema });
    expect(asked[1]!.data?.errors).toEqual({ repeat: 'The passwords differ' });
  });

  it('checks the form’s own rules first (a too short password, an unknown field)', async () => {
    const { asked, waitFor } = person({ password: 'abc', repeat: 'abc', code: 'W-1', extra: 1 });
    await expect(ask(waitFor, { prompt: 'Sign up', schema, maxAttempts: 2 })).resolves.toEqual({
      ok: false,
      reason: 'cancelled',
    });
    expect(asked).toHaveLength(2);
    expect(asked[1]!.data?.errors).toMatchObject({
      password: expect.any(String),
      extra: 'Unknown field.',
    });
  });

  it('passes on a refusal: declined, expired, cancelled on abort', async () => {
    const simple = z.object({ name: z.string() });
    await expect(ask(person('decline').waitFor, { prompt: 'Q', schema: simple })).resolves.toEqual({
      ok: false,
      reason: 'declined',
    });
    const never: WaitFor = () => new Promise<Answer>(() => {});
    await expect(
      ask(never, { prompt: 'Q', schema: simple, expiresAt: '2000-01-01T00:00:00Z' }),
    ).resolves.toEqual({ ok: false, reason: 'expired' });
    const controller = new AbortController();
    const seen = vi.fn<WaitFor>(() => new Promise<Answer>(() => {}));
    const result = ask(seen, { prompt: 'Q', schema: simple, signal: controller.signal });
    await vi.waitFor(() => expect(seen).toHaveBeenCalled());
    controller.abort();
    await expect(result).resolves.toEqual({ ok: false, reason: 'cancelled' });
    expect((seen.mock.calls[0]![1]!.signal as AbortSignal).aborted).toBe(true);
  });

  it('accepts a defined question with options, and a definition', async () => {
    const question = defineQuestion({ prompt: 'Name?', schema: z.object({ name: z.string() }) });
    expect(isQuestion(question)).toBe(true);
    const { asked, waitFor } = person({ name: 'Ada' });
    await ask(waitFor, question, {
      origin: { server: 'my app' },
      expiresAt: '2999-01-01T00:00:00Z',
    });
    expect(asked[0]).toMatchObject({
      prompt: 'Name?',
      expiresAt: '2999-01-01T00:00:00Z',
      data: { origin: { server: 'my app' } },
    });
  });

  it('refuses a maxAttempts that is no count', async () => {
    await expect(
      ask(person({}).waitFor, { prompt: 'Q', schema: z.object({}), maxAttempts: 0 }),
    ).rejects.toMatchObject({ code: 'invalid_options', path: 'maxAttempts' });
  });
});

describe('zod/mini', () => {
  it('defines and asks a question written with zod/mini', async () => {
    const schema = zm.object({
      name: zm.string().check(zm.minLength(2)),
      seats: zm.optional(zm.int()),
    });
    const question = defineQuestion({ prompt: 'Q', schema });
    expect(question.form).toMatchObject({
      properties: { name: { type: 'string', minLength: 2 }, seats: { type: 'integer' } },
      required: ['name'],
    });
    const { asked, waitFor } = person({ name: 'A' }, { name: 'Ada', seats: '3' });
    await expect(ask(waitFor, question)).resolves.toEqual({
      ok: true,
      data: { name: 'Ada', seats: 3 },
    });
    expect(asked[1]!.data?.errors).toEqual({ name: expect.any(String) });
  });
});

describe('askUrl', () => {
  it('asks a Request of kind authorization with the url and resolves typed', async () => {
    const asked: Request[] = [];
    const waitFor: WaitFor = async (request) => {
      asked.push(request);
      return asked.length === 1 ? accept(request) : decline(request);
    };
    const question = { prompt: 'Sign in to the calendar', url: 'https://example.com/auth' };
    await expect(askUrl(waitFor, question)).resolves.toEqual({ ok: true, data: undefined });
    await expect(askUrl(waitFor, question)).resolves.toEqual({ ok: false, reason: 'declined' });
    expect(asked[0]).toMatchObject({ kind: 'authorization', ...question });
  });
});

describe('a defined question inside a tool run', () => {
  it('is asked through the runner and parsed typed by the tool', async () => {
    const contact = defineQuestion({
      prompt: 'Your contact',
      schema: z.object({ email: z.email(), seats: z.int().min(1) }),
    });
    const { waitFor } = person({ email: 'ada@example.com', seats: '2' });
    const result = await runTool(
      (_args: void, { answers, round }) => {
        if (round === 0) return pending({ contact: contact.request({ id: 'contact' }) });
        const parsed = contact.parse(answers['contact']!);
        return parsed.ok ? `${parsed.data.email} × ${parsed.data.seats}` : parsed.reason;
      },
      undefined,
      { waitFor },
    );
    expect(result).toBe('ada@example.com × 2');
  });
});
