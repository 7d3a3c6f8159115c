/**
 * A tool suspension holds one schema per question: the form a Request shows (`data.schema`) is the
 * only copy, so the answer is checked against what the person saw and nothing else. A second copy
 * stored beside it is refused as an unknown key, never read.
 */
import { accept, WaitforError } from '@waitfor/core';
import {
  parseToolSuspension,
  resumeTool,
  runToolDurable,
  type ToolSuspension,
} from '@waitfor/core/tools';
import { describe, expect, it } from 'vitest';
import { bookTable } from '../__fixtures__/tools';

/** The first suspension of a booking (the details form, seats 1 to 8). */
async function suspended(): Promise<ToolSuspension> {
  const outcome = await runToolDurable(bookTable, { restaurant: 'Luigi' });
  if (!('suspension' in outcome)) throw new Error('expected a suspension');
  return JSON.parse(JSON.stringify(outcome.suspension)) as ToolSuspension;
}

describe('a tool suspension holds one schema per question', () => {
  it('checks the answer against the schema the Request shows, and only that one', async () => {
    const suspension = await suspended();
    const request = suspension.requests['details']!;
    const error = await resumeTool(bookTable, suspension, [
      accept(request, { name: 'Ada', seats: 1_000_000 }),
    ]).catch((caught: unknown) => caught);
    expect(WaitforError.isInstance(error) && [error.code, error.path]).toEqual([
      'invalid_answer',
      'details',
    ]);
  });

  it('refuses a second copy stored beside the Requests', async () => {
    const suspension = await suspended();
    const schema = suspension.requests['details']!.data!.schema as { properties: object };
    for (const key of ['schemas', 'inputRequests']) {
      const error = (() => {
        try {
          return parseToolSuspension({ ...suspension, [key]: { details: schema } });
        } catch (caught) {
          return caught;
        }
      })();
      expect(WaitforError.isInstance(error) && [error.code, error.path]).toEqual([
        'invalid_suspension',
        key,
      ]);
    }
  });
});
