/**
 * The round engine on its own, with plain Requests, Answers and real AbortControllers: a round's
 * questions run at once under one abort fan-out, an invalid form is asked again up to the limit,
 * and a suspended round takes exactly one well-formed Answer per Request.
 */
import { describe, expect, it } from 'vitest';
import { countedController } from '../__fixtures__/countedSignal';
import { accept, cancel, decline } from '../answers';
import type { Answer, Request } from '../types';
import { WaitforError } from '../waitforError';
import {
  answersFor,
  askAll,
  askUntilValid,
  checkQuestions,
  DEFAULT_MAX_ATTEMPTS,
  parseSuspension,
  resumeRound,
  type RoundDriver,
  type SuspensionShape,
} from './index';

/** A promise and its resolve, to settle a question when the test says so. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

const form: Request = {
  id: 'form-1',
  kind: 'input',
  prompt: 'Your age?',
  data: {
    schema: {
      type: 'object',
      properties: { age: { type: 'integer', minimum: 0, default: 7 } },
      required: ['age'],
    },
  },
};
const approval: Request = { id: 'ok-1', kind: 'approval', prompt: 'Go ahead?' };

const mismatchOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (WaitforError.isInstance(error)) return error;
  }
  throw new Error('expected a WaitforError');
};

describe('askAll', () => {
  it('starts every question before any finishes, and keeps their order', async () => {
    const started: number[] = [];
    const gates = [0, 1, 2, 3].map(() => deferred<string>());
    const round = askAll([0, 1, 2, 3], (item) => {
      started.push(item);
      return gates[item]!.promise;
    });
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3]);
    // Settled out of order, answered in order.
    for (const index of [3, 1, 0, 2]) gates[index]!.resolve(`answer ${index}`);
    expect(await round).toEqual(['answer 0', 'answer 1', 'answer 2', 'answer 3']);
  });

  it("reaches every question through one listener on the caller's signal, removed at the end", async () => {
    const caller = countedController();
    const signals: AbortSignal[] = [];
    const round = askAll(
      Array.from({ length: 50 }, (_, index) => index),
      (_item, question) =>
        new Promise<never>((_resolve, reject) => {
          signals.push(question.signal as AbortSignal);
          question.signal.addEventListener('abort', () => reject(question.signal.reason));
        }),
      caller.controller.signal,
    ).catch((error: unknown) => error);
    expect(caller.held()).toBe(1);
    caller.controller.abort('stop');
    expect(await round).toBe('stop');
    expect(signals).toHaveLength(50);
    expect(new Set(signals).size).toBe(50);
    expect(signals.every((signal) => signal.aborted && signal.reason === 'stop')).toBe(true);
    expect(caller.most()).toBe(1);
    expect(caller.held()).toBe(0);
  });

  it('aborts the other questions when one throws, then passes its error on', async () => {
    const failure = new Error('boom');
    const reasons: unknown[] = [];
    const error = await askAll([0, 1, 2], async (item, question) => {
      if (item === 1) throw failure;
      return new Promise<never>((_resolve, reject) =>
        question.signal.addEventListener('abort', () => {
          reasons.push(question.signal.reason);
          reject(question.signal.reason);
        }),
      );
    }).catch((caught: unknown) => caught);
    expect(error).toBe(failure);
    expect(reasons).toEqual([failure, failure]);
  });

  it('lets a question end the round without failing itself', async () => {
    const answers = await askAll(['first', 'second'], (item, question) =>
      item === 'first'
        ? (question.abortRound('refused'), Promise.resolve('no'))
        : Promise.resolve(question.signal.aborted ? 'ended' : 'asked'),
    );
    expect(answers).toEqual(['no', 'ended']);
  });

  it("asks a lone question under the caller's own signal: no controller of its own", async () => {
    const caller = countedController();
    let seen: unknown;
    const round = askAll(
      ['only'],
      (_item, question) =>
        new Promise<never>((_resolve, reject) => {
          seen = question.signal;
          question.abortRound('nobody else to end');
          question.signal.addEventListener('abort', () => reject(question.signal.reason));
        }),
      caller.controller.signal,
    ).catch((error: unknown) => error);
    expect(seen).toBe(caller.controller.signal);
    expect(caller.controller.signal.aborted).toBe(false);
    caller.controller.abort('stop');
    expect(await round).toBe('stop');
    // Without a caller's signal, a lone question still gets a real one.
    const [signal] = await askAll([0], async (_item, question) => question.signal);
    expect(signal).toBeInstanceOf(AbortSignal);
  });

  it('starts every question aborted when the caller already aborted', async () => {
    const caller = new AbortController();
    caller.abort('early');
    const seen = await askAll([0, 1], async (_item, question) => question.signal.reason);
    expect(seen).toEqual([undefined, undefined]);
    const aborted = await askAll(
      [0, 1],
      async (_item, question) => question.signal.reason,
      caller.signal,
    );
    expect(aborted).toEqual(['early', 'early']);
  });
});

describe('askUntilValid', () => {
  const invalid = () => ({ errors: { age: 'must be a number' } });

  it(`asks an invalid form again up to maxAttempts (default ${DEFAULT_MAX_ATTEMPTS}) in all, then gives the last errors`, async () => {
    const asked: Request[] = [];
    const result = await askUntilValid(form, {
      ask: async (request) => (asked.push(request), accept(request, { age: 'old' })),
      check: invalid,
      maxAttempts: DEFAULT_MAX_ATTEMPTS,
      idPrefix: 'test',
    });
    expect(result).toEqual({ errors: { age: 'must be a number' }, attempts: 3 });
    expect(asked).toHaveLength(3);
    expect(new Set(asked.map((request) => request.id)).size).toBe(3);
    expect(asked[0]).toBe(form);
    expect(asked[1]!.id).toMatch(/^test-/);
    expect(asked[2]!.data).toMatchObject({
      schema: form.data!.schema,
      errors: { age: 'must be a number' },
      values: { age: 'old' },
      attempt: 3,
    });
  });

  it('asks once with maxAttempts 1, and stops at the first valid answer', async () => {
    let calls = 0;
    await askUntilValid(form, {
      ask: async (request) => (calls++, accept(request)),
      check: invalid,
      maxAttempts: 1,
      idPrefix: 'test',
    });
    expect(calls).toBe(1);
    const answers: Answer[] = [];
    const result = await askUntilValid(form, {
      ask: async (request) => {
        const answer = accept(request, { age: answers.length === 0 ? 'x' : 40 });
        answers.push(answer);
        return answer;
      },
      check: (answer) =>
        typeof answer.data?.['age'] === 'number' ? { value: answer.data['age'] } : invalid(),
      maxAttempts: 5,
      idPrefix: 'test',
    });
    expect(result).toEqual({ value: 40 });
    expect(answers).toHaveLength(2);
  });

  it('passes an error of ask on, asking nothing more', async () => {
    let calls = 0;
    const error = await askUntilValid(form, {
      ask: async () => {
        calls += 1;
        throw new Error('gone');
      },
      check: invalid,
      maxAttempts: 3,
      idPrefix: 'test',
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe('gone');
    expect(calls).toBe(1);
  });
});

describe('answersFor', () => {
  const questions = checkQuestions({ age: form, go: approval }, 32, 'invalid_suspension');

  it('gives one checked Answer per question by input key; a form without data takes its defaults', () => {
    const answers = answersFor(questions, [decline(approval), accept(form)]);
    expect(Object.getPrototypeOf(answers)).toBeNull();
    expect({ ...answers }).toEqual({
      age: { id: 'form-1', ok: true, data: { age: 7 } },
      go: { id: 'ok-1', ok: false, reason: 'declined' },
    });
  });

  it('refuses missing, foreign, repeated and malformed Answers with answer_mismatch, naming them', () => {
    const cases: Array<[string, unknown[], { missing: string[]; foreign: string[] }]> = [
      ['one missing', [accept(form)], { missing: ['ok-1'], foreign: [] }],
      ['none (not an array)', 'nope' as never, { missing: ['form-1', 'ok-1'], foreign: [] }],
      [
        'a foreign one',
        [accept(form), accept(approval), accept('other')],
        { missing: [], foreign: ['other'] },
      ],
      [
        'one answered twice',
        [accept(form), accept(approval), decline(approval)],
        { missing: [], foreign: ['ok-1'] },
      ],
      [
        'a malformed one',
        [accept(form), { id: 'ok-1', ok: 'yes' }],
        { missing: ['ok-1'], foreign: ['ok-1'] },
      ],
      [
        'an inherited id',
        [accept(form), accept(approval), accept('constructor')],
        { missing: [], foreign: ['constructor'] },
      ],
    ];
    for (const [label, answers, expected] of cases) {
      const error = mismatchOf(() => answersFor(questions, answers));
      expect([error.code, error.cause], label).toEqual(['answer_mismatch', expected]);
    }
  });

  it('refuses an accepted form that fails its schema with invalid_answer at its input key', () => {
    const error = mismatchOf(() =>
      answersFor(questions, [accept(form, { age: -1 }), accept(approval)]),
    );
    expect([error.code, error.path]).toEqual(['invalid_answer', 'age']);
    expect(Object.keys(error.errors ?? {})).toEqual(['age']);
    // A refusal is not checked against the form.
    expect(answersFor(questions, [cancel(form), accept(approval)]).age).toMatchObject({
      ok: false,
    });
  });
});

/** A driver whose suspension is `{version: 7, requests, round, note}`, recording what it sends. */
function testDriver() {
  const sent: Array<{ note: unknown; answers: Record<string, Answer> }> = [];
  let reads = 0;
  const suspension: SuspensionShape<{ note: unknown }> = {
    version: 7,
    otherwise: 'ask again',
    read(value, fail) {
      reads += 1;
      if (typeof value['note'] !== 'string') fail('note', 'note must be a string');
      return {
        own: { note: value['note'] },
        questions: checkQuestions(value['requests'], 4, 'invalid_suspension'),
      };
    },
  };
  const driver: RoundDriver<{ note: unknown }, string> = {
    suspension,
    send: ({ own, round }, answers) => {
      sent.push({ note: own.note, answers: { ...answers } });
      return `sent round ${round}`;
    },
  };
  return { driver, sent, reads: () => reads };
}

describe('parseSuspension and resumeRound', () => {
  const stored = { version: 7, note: 'n', round: 2, requests: { age: form, go: approval } };

  it('reads a suspension once and sends one checked Answer per question through the driver', () => {
    const { driver, sent, reads } = testDriver();
    const result = resumeRound(driver, JSON.parse(JSON.stringify(stored)), [
      accept(approval),
      accept(form, { age: 40 }),
    ]);
    expect(result).toBe('sent round 2');
    expect(reads()).toBe(1);
    expect(sent).toEqual([
      {
        note: 'n',
        answers: {
          age: { id: 'form-1', ok: true, data: { age: 40 } },
          go: { id: 'ok-1', ok: true },
        },
      },
    ]);
  });

  it('refuses another version, a bad round or what the driver refuses with invalid_suspension, sending nothing', () => {
    const { driver, sent } = testDriver();
    const cases: Array<[unknown, string]> = [
      [null, ''],
      [{ ...stored, version: 6 }, 'version'],
      [{ ...stored, round: 0 }, 'round'],
      [{ ...stored, round: 1.5 }, 'round'],
      [{ ...stored, note: 1 }, 'note'],
    ];
    for (const [value, path] of cases) {
      const error = mismatchOf(() => resumeRound(driver, value, [accept(form), accept(approval)]));
      expect([error.code, error.path]).toEqual(['invalid_suspension', path]);
      expect(error.message).toMatch(/^Invalid suspension: /);
    }
    expect(
      mismatchOf(() => parseSuspension({ ...stored, version: 6 }, driver.suspension)).message,
    ).toMatch(/version 6 is not 7 \(ask again\)/);
    const mismatch = mismatchOf(() => resumeRound(driver, stored, [accept(form)]));
    expect(mismatch.code).toBe('answer_mismatch');
    expect(sent).toEqual([]);
  });
});
