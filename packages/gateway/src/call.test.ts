/**
 * One call's bookkeeping of its open questions, at 100 and at 6,000 questions (the largest a
 * 2026-07-28 path carries, scaleCases.ts): raising them, telling whether a key is open, and
 * unlinking each once settled cost the same per question at both sizes. No time is measured: the
 * work that would grow is counted instead — the elements the scanning built-ins (array methods,
 * and array, Map and Set iterators) visit while the call's own code runs. A scan per question
 * (the array of queued questions this replaced) visits about size² / 2 elements in all.
 *
 * The refusals past `maxQuestions`, and of a call that ended, are told once per call.
 */
import { cancel, type Answer, type Request } from '@waitfor/core';
import { describe, expect, onTestFinished, test } from 'vitest';
import { largestFor } from '../../mcp-bridge/src/__fixtures__/scaleCases';
import { GatewayCall, type Question } from './call';

/** Array methods that visit (or move) up to every element of the array they are called on. */
const scanning = [
  'every',
  'filter',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'forEach',
  'includes',
  'indexOf',
  'lastIndexOf',
  'map',
  'reduce',
  'shift',
  'some',
  'splice',
  'unshift',
] as const;

const iterating = ['entries', 'keys', 'values', Symbol.iterator] as const;

type Method = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Runs `work` (synchronously) with the scanning built-ins counting the elements they visit:
 * `this.length` per call of an array method, one per step of an array, Map or Set iterator.
 * Patches the prototypes only while `work` runs.
 */
function countVisits(work: () => void): number {
  let visits = 0;
  const undo: Array<() => void> = [];
  const patch = (prototype: object, name: PropertyKey, counted: (original: Method) => Method) => {
    const original = Reflect.get(prototype, name) as Method;
    Reflect.set(prototype, name, counted(original));
    undo.push(() => Reflect.set(prototype, name, original));
  };
  for (const name of scanning)
    patch(
      Array.prototype,
      name,
      (original) =>
        function (this: unknown, ...args) {
          visits += (this as unknown[]).length;
          return original.apply(this, args);
        },
    );
  const stepCounted = (original: Method): Method =>
    function (this: unknown, ...args) {
      const iterator = original.apply(this, args) as Iterator<unknown>;
      return {
        next: () => {
          const step = iterator.next();
          if (step.done !== true) visits++;
          return step;
        },
        [Symbol.iterator]() {
          return this;
        },
      };
    };
  for (const prototype of [Array.prototype, Map.prototype, Set.prototype])
    for (const name of iterating) patch(prototype, name, stepCounted);
  try {
    work();
  } finally {
    for (const restore of undo.reverse()) restore();
  }
  return visits;
}

const request = (index: number): Request => ({
  id: `r${index}`,
  kind: 'question',
  prompt: `question ${index}`,
});

/** The upstream key of question `index`: every other one repeats an earlier key or names a gateway key. */
const upstreamKey = (index: number): string =>
  index % 4 === 1 ? `k${index - 1}` : index % 4 === 3 ? `q${index}` : `k${index}`;

interface Raised {
  call: GatewayCall;
  askers: AbortController[];
  answers: Array<Promise<Answer>>;
}

/** A call with `size` questions raised in one turn (keys as upstreamKey), as the bridge raises them. */
function raise(size: number, call = new GatewayCall('call', 'tools/call', 'many', size)): Raised {
  const askers: AbortController[] = [];
  const answers: Array<Promise<Answer>> = [];
  for (let index = 0; index < size; index++) {
    const asker = new AbortController();
    askers.push(asker);
    answers.push(call.ask(request(index), asker.signal, undefined, upstreamKey(index)));
  }
  return { call, askers, answers };
}

const sizes = [100, largestFor('modern')];

/** Visits per question of `work` at each size. */
function perQuestion(work: (size: number) => number): Record<number, number> {
  return Object.fromEntries(sizes.map((size) => [size, work(size) / size]));
}

/** The questions of the call's next step (they are the host's then). */
async function nextQuestions(call: GatewayCall): Promise<Question[]> {
  const step = await call.next();
  if (step.kind !== 'questions') throw new Error(`expected questions, got ${step.kind}`);
  return step.questions;
}

describe('open questions of one call cost the same per question at 100 and 6,000', () => {
  test('raising them: each key is told open or not without a scan; keys unique, order kept', async () => {
    const raised: Record<number, Raised> = {};
    const visits = perQuestion((size) => countVisits(() => (raised[size] = raise(size))));
    expect(visits[6_000]).toBeLessThanOrEqual(visits[100]!);
    const { call, answers } = raised[6_000]!;
    const questions = await nextQuestions(call);
    expect(
      questions.map(
        (question) => question.method === 'elicitation/create' && question.request.prompt,
      ),
    ).toEqual(Array.from({ length: 6_000 }, (_, index) => `question ${index}`));
    expect(new Set(questions.map((question) => question.key)).size).toBe(6_000);
    call.cancel(new Error('done'));
    await Promise.all(answers);
  });

  test('withdrawing queued questions (the askers give up, last first) unlinks each at once', async () => {
    const visits = perQuestion((size) => {
      const askers = raise(size).askers.reverse();
      return countVisits(() => {
        for (const asker of askers) asker.abort();
      });
    });
    expect(visits[6_000]).toBeLessThanOrEqual(visits[100]!);
  });

  test('ending the call with every question queued settles each at once', async () => {
    const visits = perQuestion((size) => {
      const { call } = raise(size);
      return countVisits(() => call.cancel(new Error('the host cancelled the call')));
    });
    expect(visits[6_000]).toBeLessThanOrEqual(visits[100]!);
  });

  test("the host's answers to a round settle each of its questions at once", async () => {
    const rounds = await Promise.all(
      sizes.map(async (size) => {
        const { call, answers } = raise(size);
        const questions = await nextQuestions(call);
        const responses = Object.fromEntries(
          questions.map((question) => [question.key, { action: 'decline' }]),
        );
        return { size, call, answers, responses };
      }),
    );
    const visits: Record<number, number> = {};
    for (const { size, call, responses } of rounds)
      visits[size] = countVisits(() => call.answer(responses)) / size;
    expect(visits[6_000]).toBeLessThanOrEqual(visits[100]!);
    for (const { answers } of rounds)
      expect((await Promise.all(answers)).every((answer) => answer.reason === 'declined')).toBe(
        true,
      );
  });
});

describe('refusals are told once per call', () => {
  test('past maxQuestions: the extra questions are cancelled upstream, counted in one line', async () => {
    const call = new GatewayCall('call', 'tools/call', 'many', 16);
    onTestFinished(() => call.cancel(new Error('done')));
    const { answers } = raise(100, call);
    const refused = await Promise.all(answers.slice(16));
    expect(refused).toEqual(refused.map((_, index) => cancel(request(index + 16))));
    expect(call.refusals()).toBe(
      'tools/call many refused 84 questions upstream: 84 too many open questions in one call (maxQuestions 16)',
    );
  });

  test('a call that ended refuses what is raised after, in the same line', async () => {
    const call = new GatewayCall('call', 'prompts/get', 'greeting', 1);
    expect(call.refusals()).toBeUndefined();
    const { answers } = raise(2, call);
    call.cancel(new Error('the host cancelled the call'));
    await Promise.all(answers);
    await expect(call.relay('roots/list', {})).rejects.toThrow('the call that asked ended');
    expect(call.refusals()).toBe(
      'prompts/get greeting refused 2 questions upstream: 1 too many open questions in one call (maxQuestions 1); 1 the call that asked ended',
    );
  });
});
