/**
 * Durable tool runs: a run returns a JSON-safe suspension instead of waiting, and `resumeTool`
 * finishes it later — here also in a separate Node process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { accept, decline, WaitforError, type Answer } from '@waitfor/core';
import {
  parseToolSuspension,
  pending,
  resumeTool,
  runToolDurable,
  type Tool,
  type ToolOutcome,
  type ToolSuspension,
} from '@waitfor/core/tools';
import { describe, expect, it, vi } from 'vitest';
import { bookTable, defaultSeatsSchema, seatsSchema } from '../__fixtures__/tools';

const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const child = fileURLToPath(new URL('../__fixtures__/resumeToolChild.ts', import.meta.url));

type ChildResult = {
  ok: boolean;
  outcome?: ToolOutcome<string>;
  code?: string;
  path?: string;
  pid: number;
};

/** Resume `suspension` with `answers` in a fresh Node process and read back what it printed. */
function resumeInChild(suspension: unknown, answers: unknown[]): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const process = spawn(tsx, [child], { stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    process.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    process.on('error', reject);
    process.on('exit', () => {
      try {
        resolve(JSON.parse(output) as ChildResult);
      } catch (error) {
        reject(new Error(`child printed ${output}`, { cause: error }));
      }
    });
    process.stdin.end(JSON.stringify({ suspension, answers }));
  });
}

/** The suspension of an outcome (fails the test when the run completed). */
function suspensionOf(outcome: ToolOutcome<unknown>): ToolSuspension {
  expect(outcome.status).toBe('suspended');
  return (outcome as { suspension: ToolSuspension }).suspension;
}

async function errorOf(promise: Promise<unknown>): Promise<WaitforError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(WaitforError.isInstance(error)).toBe(true);
  return error as WaitforError;
}

const through = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('durable tool runs', () => {
  it('suspends, survives JSON, and is resumed (twice) in another process until complete', async () => {
    const first = suspensionOf(await runToolDurable(bookTable, { restaurant: 'Luigi' }));
    expect(through(first)).toEqual(first);
    expect(first).toEqual({
      version: 1,
      args: { restaurant: 'Luigi' },
      state: { step: 'details' },
      requests: {
        details: {
          id: 'details-1',
          kind: 'input',
          prompt: 'Book Luigi',
          data: { schema: seatsSchema },
        },
      },
      round: 1,
    });

    const second = await resumeInChild(through(first), [
      accept('details-1', { name: 'Ada', seats: '4' }),
    ]);
    expect(second.ok).toBe(true);
    expect(second.pid).not.toBe(process.pid);
    const next = suspensionOf(second.outcome!);
    expect(next.round).toBe(2);
    expect(next.state).toEqual({ step: 'approve', name: 'Ada', seats: 4 });
    expect(Object.values(next.requests).map((request) => request.prompt)).toEqual(['Pay 40 EUR?']);

    const third = await resumeInChild(next, [accept('approve-1')]);
    expect(third.outcome).toEqual({ status: 'complete', result: 'booked Luigi for Ada (4)' });
  }, 60_000);

  it('refuses, in another process too, Answers that are not to its own Requests', async () => {
    const suspension = suspensionOf(await runToolDurable(bookTable, { restaurant: 'Luigi' }));
    const refused = await resumeInChild(suspension, [accept('approve-1')]);
    expect([refused.ok, refused.code]).toEqual([false, 'answer_mismatch']);
  }, 60_000);

  it('stores options.origin on the suspension’s Requests', async () => {
    const suspension = suspensionOf(
      await runToolDurable(bookTable, { restaurant: 'L' }, { origin: { server: 'Bookings' } }),
    );
    expect(suspension.requests['details']!.data?.origin).toEqual({
      server: 'Bookings',
      inputKey: 'details',
    });
  });

  it('completes at once when the tool needs nobody', async () => {
    await expect(runToolDurable(() => 'done', null)).resolves.toEqual({
      status: 'complete',
      result: 'done',
    });
  });

  describe('resume only sends Answers to the suspension’s own Requests', () => {
    const tool = vi.fn(bookTable);
    const cases: Array<[string, unknown]> = [
      ['none', []],
      ['not an array', 'accept'],
      ['a foreign id', [accept('details-1', { name: 'A', seats: 1 }), accept('other')]],
      ['the same id twice', [accept('details-1', { name: 'A', seats: 1 }), decline('details-1')]],
      ['a malformed Answer', [{ id: 'details-1', ok: 'yes' }]],
      ['an inherited key as id', [accept('constructor')]],
    ];
    it.each(cases)('%s: answer_mismatch, the tool does not run', async (_name, answers) => {
      const suspension = suspensionOf(await runToolDurable(bookTable, { restaurant: 'L' }));
      tool.mockClear();
      const error = await errorOf(resumeTool(tool, suspension, answers as Answer[]));
      expect(error.code).toBe('answer_mismatch');
      expect(tool).not.toHaveBeenCalled();
    });

    it('an invalid form answer is invalid_answer with the per-field errors; the tool does not run', async () => {
      const suspension = suspensionOf(await runToolDurable(bookTable, { restaurant: 'L' }));
      tool.mockClear();
      const error = await errorOf(
        resumeTool(tool, suspension, [accept('details-1', { name: 'Ada', seats: 99 })]),
      );
      expect([error.code, error.path]).toEqual(['invalid_answer', 'details']);
      expect(error.errors).toEqual({ seats: expect.any(String) });
      expect(tool).not.toHaveBeenCalled();
    });

    it('a form answer is taken as given: a required field left out is invalid_answer, though it has a default', async () => {
      const withDefault: Tool<null, unknown> = (_args, { answers, state }) =>
        state === undefined
          ? pending(
              {
                details: {
                  id: 'details-1',
                  kind: 'input',
                  prompt: 'Seats',
                  data: { schema: defaultSeatsSchema },
                },
              },
              'asked',
            )
          : answers['details'];
      const suspension = suspensionOf(await runToolDurable(withDefault, null));
      const error = await errorOf(resumeTool(withDefault, suspension, [accept('details-1', {})]));
      expect([error.code, error.path]).toEqual(['invalid_answer', 'details']);
      expect(error.errors).toEqual({ seats: 'Required.' });
      await expect(
        resumeTool(withDefault, suspension, [accept('details-1')]),
      ).resolves.toMatchObject({ status: 'complete', result: { data: { seats: 2 } } });
    });

    it('a declined form reaches the tool unchecked', async () => {
      const suspension = suspensionOf(await runToolDurable(bookTable, { restaurant: 'L' }));
      await expect(resumeTool(bookTable, suspension, [decline('details-1')])).resolves.toEqual({
        status: 'complete',
        result: 'not booked (declined)',
      });
    });
  });

  describe('an untrusted suspension is checked whole', () => {
    const base = async () =>
      through(suspensionOf(await runToolDurable(bookTable, { restaurant: 'L' }))) as Record<
        string,
        unknown
      >;
    const request = (suspension: Record<string, unknown>) =>
      (suspension['requests'] as Record<string, Record<string, unknown>>)['details']!;
    const cases: Array<[string, (suspension: Record<string, unknown>) => unknown, string]> = [
      ['not an object', () => 'suspension', ''],
      ['another version', (value) => ({ ...value, version: 2 }), 'version'],
      ['an unknown key', (value) => ({ ...value, inputResponses: {} }), 'inputResponses'],
      ['no args', ({ args: _args, ...rest }) => rest, 'args'],
      ['args JSON would change', (value) => ({ ...value, args: { at: new Date() } }), 'args.at'],
      ['state JSON would change', (value) => ({ ...value, state: [() => 1] }), 'state.0'],
      ['round 0', (value) => ({ ...value, round: 0 }), 'round'],
      ['no requests', (value) => ({ ...value, requests: {} }), 'requests'],
      ['requests as an array', (value) => ({ ...value, requests: [request(value)] }), 'requests'],
      [
        'a Request without id',
        (value) => ({ ...value, requests: { details: { ...request(value), id: '' } } }),
        'requests.details.id',
      ],
      [
        'a schema outside the subset',
        (value) => ({
          ...value,
          requests: {
            details: {
              ...request(value),
              data: { schema: { type: 'object', properties: { x: { type: 'object' } } } },
            },
          },
        }),
        'requests.details.data.schema.properties.x',
      ],
      [
        'two Requests with one id',
        (value) => ({ ...value, requests: { a: request(value), b: request(value) } }),
        'requests.b.id',
      ],
    ];
    it.each(cases)('%s: invalid_suspension naming the field', async (_name, tamper, path) => {
      const tool = vi.fn(bookTable);
      const tampered = tamper(await base());
      const error = await errorOf(
        resumeTool(tool, tampered, [accept('details-1', { name: 'A', seats: 1 })]),
      );
      expect([error.code, error.path]).toEqual(['invalid_suspension', path]);
      expect(() => parseToolSuspension(tampered)).toThrow(WaitforError);
      expect(tool).not.toHaveBeenCalled();
    });

    it('more Requests than maxRequests', async () => {
      const value = await base();
      const requests = Object.fromEntries(
        Array.from({ length: 3 }, (_, index) => [
          `k${index}`,
          { ...request(value), id: `r${index}` },
        ]),
      );
      const error = await errorOf(
        resumeTool(bookTable, { ...value, requests }, [], { maxRequests: 2 }),
      );
      expect([error.code, error.path]).toEqual(['invalid_suspension', 'requests']);
    });

    it('a __proto__ input key stays an own key, answered like any other', async () => {
      const json =
        '{"version":1,"args":null,"requests":{"__proto__":{"id":"p","kind":"approval","prompt":"?"}},"round":1}';
      const seen = await resumeTool(
        (_args, context) => Object.keys(context.answers),
        JSON.parse(json),
        [accept('p')],
      );
      expect(seen).toEqual({ status: 'complete', result: ['__proto__'] });
    });
  });

  it('counts rounds across resumes: rounds_exceeded after maxRounds', async () => {
    const forever: Tool<null, never> = (_args, context) =>
      pending({ again: { id: `r${context.round}`, kind: 'approval', prompt: '?' } }) as never;
    let suspension = suspensionOf(await runToolDurable(forever, null, { maxRounds: 2 }));
    suspension = suspensionOf(
      await resumeTool(forever, suspension, [accept('r0')], { maxRounds: 2 }),
    );
    expect(suspension.round).toBe(2);
    const error = await errorOf(resumeTool(forever, suspension, [accept('r1')], { maxRounds: 2 }));
    expect(error.code).toBe('rounds_exceeded');
  });

  it('refuses args that are not JSON-safe before running the tool', async () => {
    const tool = vi.fn(() => 'ran');
    const error = await errorOf(runToolDurable(tool, { when: new Date() } as never));
    expect([error.code, error.path]).toEqual(['invalid_options', 'args.when']);
    expect(tool).not.toHaveBeenCalled();
  });

  it('ends with aborted when the signal is aborted', async () => {
    const suspension = suspensionOf(await runToolDurable(bookTable, { restaurant: 'L' }));
    const error = await errorOf(
      resumeTool(bookTable, suspension, [decline('details-1')], { signal: AbortSignal.abort() }),
    );
    expect(error.code).toBe('aborted');
  });
});
