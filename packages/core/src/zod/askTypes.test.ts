/**
 * The inferred answer of every supported field kind (checked by `tsc -p tsconfig.test.json`; at
 * run time these only run the questions).
 */
import { accept, type WaitFor } from '@waitfor/core';
import { pending, runTool, runToolDurable, type ToolOutcome } from '@waitfor/core/tools';
import { ask, askUrl, defineQuestion, type AskResult } from '@waitfor/core/zod';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

const waitFor: WaitFor = async (request) => accept(request, {});

const schema = z.object({
  name: z.string().min(1).max(40),
  email: z.email(),
  site: z.url(),
  day: z.iso.date(),
  at: z.iso.datetime(),
  weight: z.number().min(0).max(500),
  seats: z.int().min(1).max(8),
  vegan: z.boolean(),
  colour: z.enum(['red', 'green']),
  size: z.union([z.literal('s').meta({ title: 'Small' }), z.literal('l').meta({ title: 'Large' })]),
  tags: z.array(z.enum(['a', 'b'])),
  nick: z.string().optional(),
  guests: z.int().default(2),
});

describe('inferred answers', () => {
  it('types every supported field kind', async () => {
    const result = await ask(waitFor, { prompt: 'Q', schema });
    expectTypeOf(result).toEqualTypeOf<AskResult<z.output<typeof schema>>>();
    if (result.ok) {
      expectTypeOf(result.data.name).toEqualTypeOf<string>();
      expectTypeOf(result.data.email).toEqualTypeOf<string>();
      expectTypeOf(result.data.site).toEqualTypeOf<string>();
      expectTypeOf(result.data.day).toEqualTypeOf<string>();
      expectTypeOf(result.data.at).toEqualTypeOf<string>();
      expectTypeOf(result.data.weight).toEqualTypeOf<number>();
      expectTypeOf(result.data.seats).toEqualTypeOf<number>();
      expectTypeOf(result.data.vegan).toEqualTypeOf<boolean>();
      expectTypeOf(result.data.colour).toEqualTypeOf<'red' | 'green'>();
      expectTypeOf(result.data.size).toEqualTypeOf<'s' | 'l'>();
      expectTypeOf(result.data.tags).toEqualTypeOf<Array<'a' | 'b'>>();
      // Optional: may be absent; a default: always there on the output side.
      expectTypeOf(result.data).toHaveProperty('nick').toEqualTypeOf<string | undefined>();
      expectTypeOf(result.data.guests).toEqualTypeOf<number>();
    } else {
      expectTypeOf(result.reason).toBeString();
      // @ts-expect-error -- a refusal has no data
      void result.data;
    }
  });

  it('types a defined question, its check and its parse alike', () => {
    const question = defineQuestion({ prompt: 'Q', schema: z.object({ on: z.boolean() }) });
    expectTypeOf(ask(waitFor, question)).resolves.toEqualTypeOf<AskResult<{ on: boolean }>>();
    expectTypeOf(question.parse(accept('x'))).toEqualTypeOf<AskResult<{ on: boolean }>>();
    const checked = question.check({});
    if (checked.ok) expectTypeOf(checked.data).toEqualTypeOf<{ on: boolean }>();
    else expectTypeOf(checked.errors).toEqualTypeOf<Record<string, string>>();
  });

  it('types a URL question', () => {
    expectTypeOf(
      askUrl(waitFor, { prompt: 'Sign in', url: 'https://example.com' }),
    ).resolves.toEqualTypeOf<AskResult<undefined>>();
  });

  it('types a tool run by its result, never by the Pending', async () => {
    const result = await runTool(
      (_args: { id: number }, { round }) => (round === 0 ? pending({}) : { done: true as const }),
      { id: 1 },
      { waitFor },
    ).catch(() => undefined);
    expectTypeOf(result).toEqualTypeOf<{ done: true } | undefined>();
    interface Args {
      id: number;
    }
    const outcome = runToolDurable((args: Args) => `#${args.id}`, { id: 1 });
    expectTypeOf(outcome).resolves.toEqualTypeOf<ToolOutcome<string>>();
  });
});
