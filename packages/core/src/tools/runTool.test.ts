/**
 * The tool runner: a host's own tool asks through the same waitFor slot as an MCP server, with the
 * guarantees of the bridge's modern loop (round cap, abort, concurrent rounds, expiresAt, form
 * re-asks, typed errors for a malformed Pending).
 */
import {
  accept,
  decline,
  WaitforError,
  type Answer,
  type Request,
  type WaitFor,
} from '@waitfor/core';
import { pending, runTool, type Tool, type ToolContext } from '@waitfor/core/tools';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { bookTable, defaultSeatsSchema, seatsSchema } from '../__fixtures__/tools';

/** A waitFor that answers every Request with `answer` and records what it was asked. */
function scripted(answer: (request: Request, index: number) => Answer | Promise<Answer>) {
  const asked: Request[] = [];
  const waitFor: WaitFor = async (request) => {
    asked.push(request);
    return answer(request, asked.length - 1);
  };
  return { asked, waitFor };
}

/** The WaitforError a promise rejects with (fails the test when it resolves). */
async function errorOf(promise: Promise<unknown>): Promise<WaitforError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(WaitforError.isInstance(error)).toBe(true);
  return error as WaitforError;
}

const question = (id: string, extra: Partial<Request> = {}): Request => ({
  id,
  kind: 'approval',
  prompt: `Allow ${id}?`,
  ...extra,
});

/** A tool that asks `requests` once (state `asked`), then returns what it was handed. */
const askOnce =
  (requests: Record<string, Request>): Tool<void, ToolContext> =>
  (_args, context) =>
    context.state === undefined ? pending(requests, 'asked') : context;

describe('runTool', () => {
  it('returns a result at once when the tool needs nobody', async () => {
    const { asked, waitFor } = scripted(() => {
      throw new Error('never asked');
    });
    const tool = vi.fn((args: number, context: ToolContext) => ({ doubled: args * 2, context }));
    const result = await runTool(tool, 21, { waitFor });
    expect(result.doubled).toBe(42);
    expect(result.context.round).toBe(0);
    expect(Object.keys(result.context.answers)).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('asks the pending Requests and runs the tool again with the Answers by key and the state', async () => {
    const { asked, waitFor } = scripted((request) =>
      request.kind === 'input' ? accept(request, { name: 'Ada', seats: '2' }) : accept(request),
    );
    await expect(runTool(bookTable, { restaurant: 'Luigi' }, { waitFor })).resolves.toBe(
      'booked Luigi for Ada (2)',
    );
    expect(asked.map((request) => request.id)).toEqual(['details-1', 'approve-1']);
    expect(asked[0]!.data?.schema).toEqual(seatsSchema);
  });

  it('hands the tool the Answer under its input key, its own id and the state as given', async () => {
    const { waitFor } = scripted((request) => decline(request));
    const state = { cart: [1, 2], note: 'x' };
    const context = await runTool(
      (_args: void, seen: ToolContext) =>
        seen.round === 0 ? pending({ 'pay-now': question('pay') }, state) : seen,
      undefined,
      { waitFor },
    );
    expect(context.round).toBe(1);
    expect(context.state).toEqual(state);
    expect(context.answers['pay-now']).toEqual({ id: 'pay', ok: false, reason: 'declined' });
    // Null prototype: keys the tool never asked for are not there.
    expect(context.answers['constructor']).toBeUndefined();
  });

  it('asks the Requests of one round concurrently: all start before any finishes', async () => {
    const started: string[] = [];
    const startedWhenOneFinished: number[] = [];
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    const waitFor: WaitFor = async (request) => {
      started.push(request.id);
      if (started.length === 3) release();
      // Asked one after another, the first would wait here for ever: the test's deadline fails it.
      await allStarted;
      startedWhenOneFinished.push(started.length);
      return accept(request);
    };
    const context = await runTool(
      askOnce({ a: question('a'), b: question('b'), c: question('c') }),
      undefined,
      { waitFor },
    );
    expect(started.sort()).toEqual(['a', 'b', 'c']);
    expect(startedWhenOneFinished).toEqual([3, 3, 3]);
    expect(Object.values(context.answers).map((answer) => answer.ok)).toEqual([true, true, true]);
  }, 5_000);

  it('stops after maxRounds with rounds_exceeded', async () => {
    const { asked, waitFor } = scripted((request) => accept(request));
    const tool = vi.fn(
      (_args: void, context: ToolContext) =>
        pending({ again: question(`round-${context.round}`) }) as never,
    );
    const error = await errorOf(runTool(tool, undefined, { waitFor, maxRounds: 2 }));
    expect(error.code).toBe('rounds_exceeded');
    expect(asked).toHaveLength(2);
    expect(tool).toHaveBeenCalledTimes(3);
  });

  it('sets options.origin with the input key on every Request that names no origin', async () => {
    const { asked, waitFor } = scripted((request) => accept(request));
    const own = { server: 'Calendar' };
    await runTool(
      askOnce({ a: question('a'), b: question('b', { data: { origin: own } }) }),
      undefined,
      {
        waitFor,
        origin: { server: 'Deploy tool' },
      },
    );
    expect(asked.map((request) => request.data?.origin)).toEqual([
      { server: 'Deploy tool', inputKey: 'a' },
      own,
    ]);
    const error = await errorOf(
      runTool(() => 'done', undefined, { waitFor, origin: { server: '' } }),
    );
    expect([error.code, error.path]).toEqual(['invalid_options', 'origin.server']);
  });

  it('passes a tool’s own error through unchanged', async () => {
    const failure = new Error('disk full');
    const tool = vi.fn((_args: void, context: ToolContext) => {
      if (context.round === 0) return pending({ a: question('a') });
      throw failure;
    });
    await expect(
      runTool(tool, undefined, { waitFor: async (request) => accept(request) }),
    ).rejects.toBe(failure);
  });

  it('refuses a maxRounds, maxAttempts or maxRequests that is no count, and a missing waitFor', async () => {
    const tool = () => 'done';
    const waitFor: WaitFor = async (request) => accept(request);
    for (const options of [{ maxRounds: -1 }, { maxAttempts: 0 }, { maxRequests: 1.5 }]) {
      const error = await errorOf(runTool(tool, undefined, { waitFor, ...options }));
      expect(error.code).toBe('invalid_options');
      expect(error.path).toBe(Object.keys(options)[0]);
    }
    const error = await errorOf(runTool(tool, undefined, {} as never));
    expect([error.code, error.path]).toEqual(['invalid_options', 'waitFor']);
  });

  describe('abort', () => {
    it('reaches every open waitFor of the round and ends the run with aborted', async () => {
      const signals: AbortSignal[] = [];
      const waitFor: WaitFor = (_request, options) => {
        signals.push(options!.signal as AbortSignal);
        return new Promise(() => {});
      };
      const controller = new AbortController();
      const run = runTool(askOnce({ a: question('a'), b: question('b') }), undefined, {
        waitFor,
        signal: controller.signal,
      });
      await vi.waitFor(() => expect(signals).toHaveLength(2));
      controller.abort(new Error('user left'));
      const error = await errorOf(run);
      expect(error.code).toBe('aborted');
      expect((error.cause as Error).message).toBe('user left');
      expect(signals.every((signal) => signal.aborted)).toBe(true);
    });

    it('does not run the tool when the signal is already aborted', async () => {
      const tool = vi.fn(() => 'ran');
      const error = await errorOf(
        runTool(tool, undefined, {
          waitFor: async (request) => accept(request),
          signal: AbortSignal.abort(),
        }),
      );
      expect(error.code).toBe('aborted');
      expect(tool).not.toHaveBeenCalled();
    });

    it('hands the tool the signal', async () => {
      const controller = new AbortController();
      const seen = await runTool((_args: void, context) => context.signal, undefined, {
        waitFor: async (request) => accept(request),
        signal: controller.signal,
      });
      expect(seen).toBe(controller.signal);
    });

    it('adds one listener to the caller’s signal however many questions a round has', async () => {
      const controller = new AbortController();
      const add = vi.spyOn(controller.signal, 'addEventListener');
      const requests = Object.fromEntries(
        Array.from({ length: 20 }, (_, index) => [`q${index}`, question(`q${index}`)]),
      );
      await runTool(askOnce(requests), undefined, {
        waitFor: async (request) => accept(request),
        signal: controller.signal,
      });
      expect(add).toHaveBeenCalledTimes(1);
    });
  });

  it('honours expiresAt: an unanswered Request ends expired and the tool sees it', async () => {
    // The test's clock: the Request expires when the clock passes its expiresAt, not before.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const never: WaitFor = () => new Promise(() => {});
    const soon = new Date(Date.now() + 60_000).toISOString();
    const past = '2000-01-01T00:00:00Z';
    let settled = false;
    const running = runTool(
      askOnce({
        soon: question('soon', { expiresAt: soon }),
        past: question('past', { expiresAt: past }),
      }),
      undefined,
      { waitFor: never },
    ).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const context = await running;
    expect(context.answers['soon']).toEqual({ id: 'soon', ok: false, reason: 'expired' });
    expect(context.answers['past']).toEqual({ id: 'past', ok: false, reason: 'expired' });
  });

  it('turns a waitFor that throws or answers another id into a cancelled Answer', async () => {
    const context = await runTool(askOnce({ a: question('a'), b: question('b') }), undefined, {
      waitFor: async (request) => {
        if (request.id === 'a') throw new Error('broken');
        return accept('someone-else');
      },
    });
    expect(context.answers['a']).toMatchObject({ id: 'a', ok: false, reason: 'cancelled' });
    expect(context.answers['b']).toMatchObject({ id: 'b', ok: false, reason: 'cancelled' });
  });

  describe('forms', () => {
    const form = question('form', {
      kind: 'input',
      prompt: 'Seats',
      data: { schema: seatsSchema },
    });

    it('re-asks an invalid form with errors, values and attempt, and hands on the checked value', async () => {
      const { asked, waitFor } = scripted((request, index) =>
        index === 0
          ? accept(request, { name: 'Ada', seats: '12' })
          : accept(request, { name: 'Ada', seats: '3' }),
      );
      const context = await runTool(askOnce({ form }), undefined, { waitFor });
      expect(asked).toHaveLength(2);
      const again = asked[1]!;
      expect(again.id).not.toBe('form');
      expect(again.data).toMatchObject({
        schema: seatsSchema,
        errors: { seats: expect.any(String) },
        values: { name: 'Ada', seats: '12' },
        attempt: 2,
      });
      expect(again.data?.errors).not.toHaveProperty('name');
      expect(context.answers['form']).toEqual({
        id: 'form',
        ok: true,
        data: { name: 'Ada', seats: 3 },
      });
    });

    it('cancels after maxAttempts invalid submissions', async () => {
      const { asked, waitFor } = scripted((request) => accept(request, { seats: 'many' }));
      const context = await runTool(askOnce({ form }), undefined, { waitFor, maxAttempts: 2 });
      expect(asked.map((request) => request.data?.attempt)).toEqual([undefined, 2]);
      expect(context.answers['form']).toEqual({ id: 'form', ok: false, reason: 'cancelled' });
    });

    describe('an answer is taken as the person gave it', () => {
      const withDefault = question('form', {
        kind: 'input',
        prompt: 'Seats',
        data: {
          schema: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              seats: { type: 'integer', default: 2 },
              note: { type: 'string', default: 'none' },
            },
            required: ['name', 'seats'],
          },
        },
      });

      it('a required field left out is asked again, though it has a default; an optional one stays out', async () => {
        const { asked, waitFor } = scripted((request, index) =>
          index === 0
            ? accept(request, { name: 'Ada' })
            : accept(request, { name: 'Ada', seats: 4 }),
        );
        const context = await runTool(askOnce({ form: withDefault }), undefined, { waitFor });
        expect(asked).toHaveLength(2);
        expect(asked[1]!.data?.errors).toEqual({ seats: 'Required.' });
        // The person cleared `note`: its default is not filled in behind their back.
        expect(context.answers['form']).toEqual({
          id: 'form',
          ok: true,
          data: { name: 'Ada', seats: 4 },
        });
      });

      it('an accept without data takes the defaults', async () => {
        const { waitFor } = scripted((request) => accept(request));
        const schemaOnly = question('form', {
          kind: 'input',
          prompt: 'Seats',
          data: { schema: defaultSeatsSchema },
        });
        const context = await runTool(askOnce({ form: schemaOnly }), undefined, { waitFor });
        expect(context.answers['form']).toEqual({ id: 'form', ok: true, data: { seats: 2 } });
      });
    });

    it('never checks a declined form', async () => {
      const { asked, waitFor } = scripted((request) => decline(request));
      const context = await runTool(askOnce({ form }), undefined, { waitFor });
      expect(asked).toHaveLength(1);
      expect(context.answers['form']).toEqual({ id: 'form', ok: false, reason: 'declined' });
    });
  });

  describe('a malformed Pending is a typed error, nothing is asked', () => {
    const cases: Array<[string, () => unknown, string, string | undefined]> = [
      ['requests that are no object', () => pending([] as never), 'invalid_pending', 'requests'],
      ['no requests', () => pending({}), 'invalid_pending', 'requests'],
      [
        'something that is not a Request',
        () => pending({ a: { id: 'a', prompt: 'Hi?' } as never }),
        'invalid_request',
        'requests.a.kind',
      ],
      [
        'a bad expiresAt',
        () => pending({ a: question('a', { expiresAt: 'soon' }) }),
        'invalid_pending',
        'requests.a.expiresAt',
      ],
      [
        'two Requests with one id',
        () => pending({ a: question('same'), b: question('same') }),
        'duplicate_request',
        'requests.b.id',
      ],
      [
        'too many Requests',
        () => pending({ a: question('a'), b: question('b'), c: question('c') }),
        'invalid_pending',
        'requests',
      ],
      [
        'a form schema outside the subset',
        () =>
          pending({
            a: question('a', {
              kind: 'input',
              data: { schema: { type: 'object', properties: { x: { type: 'object' } } } },
            }),
          }),
        'invalid_pending',
        'requests.a.data.schema.properties.x',
      ],
      [
        'state that JSON would change',
        () => pending({ a: question('a') }, { when: new Date() } as never),
        'invalid_pending',
        'state.when',
      ],
      [
        'state holding a class instance',
        () =>
          pending({ a: question('a') }, {
            at: new (class Point {
              x = 1;
            })(),
          } as never),
        'invalid_pending',
        'state.at',
      ],
      [
        'state with undefined',
        () => pending({ a: question('a') }, [1, undefined] as never),
        'invalid_pending',
        'state.1',
      ],
      [
        'cyclic state',
        () => {
          const cycle: Record<string, unknown> = {};
          cycle['self'] = cycle;
          return pending({ a: question('a') }, cycle as never);
        },
        'invalid_pending',
        undefined,
      ],
    ];

    it.each(cases)('%s', async (_name, make, code, path) => {
      const { asked, waitFor } = scripted((request) => accept(request));
      const error = await errorOf(
        runTool(make as Tool<void, never>, undefined, { waitFor, maxRequests: 2 }),
      );
      expect(error.code).toBe(code === 'invalid_request' ? 'invalid_pending' : code);
      if (path !== undefined) expect(error.path).toBe(path);
      else expect(error.path).toMatch(/^state(\.self)+$/);
      expect(asked).toEqual([]);
    });
  });
});
