/**
 * `askOnce`, the step every question of both eras takes through the host's waitFor: a question's
 * signal is a real AbortController following the SDK's; a wait is raced against it and leaves no
 * listener behind, and the context a host gets carries that real AbortSignal even when the host
 * copies the context.
 */
import { accept, type Answer, type Request, type WaitFor } from '@waitfor/core';
import { linkedController } from '@waitfor/runtime';
import { describe, expect, it } from 'vitest';
import { countedController } from '../../core/src/__fixtures__/countedSignal';
import { askOnce } from './askPerson';
import { BridgeError } from './bridgeError';

const request: Request = { id: 'elc-1', kind: 'input', prompt: 'Go ahead?' };

const codeOf = (error: unknown) => (BridgeError.isInstance(error) ? error.code : error);

describe('askOnce', () => {
  it('takes an answer given at once, leaving no listener behind on the signal it was given', async () => {
    const question = countedController();
    const answer = await askOnce(request, {
      waitFor: async (asked) => accept(asked, { confirm: true }),
      signal: question.controller.signal,
    });
    expect(answer).toEqual({ id: 'elc-1', ok: true, data: { confirm: true } });
    expect(question.added()).toBe(1);
    expect(question.held()).toBe(0);
  });

  it('ends at once, without asking, a question whose SDK signal already aborted', async () => {
    const sdk = countedController();
    sdk.controller.abort('server cancelled');
    const question = linkedController(sdk.controller.signal);
    const seen: unknown[] = [];
    const error = await askOnce(request, {
      waitFor: (asked) => {
        seen.push(asked);
        return new Promise<Answer>(() => {});
      },
      signal: question.signal,
    }).catch((caught: unknown) => caught);
    expect(codeOf(error)).toBe('aborted');
    expect(seen).toEqual([]);
    expect(question.signal.reason).toBe('server cancelled');
  });

  it('ends a wait the host never settles when the SDK signal aborts', async () => {
    const sdk = countedController();
    const question = linkedController(sdk.controller.signal);
    let waiting!: () => void;
    const asked = new Promise<void>((resolve) => (waiting = resolve));
    const pending = askOnce(request, {
      waitFor: () => {
        waiting();
        return new Promise<Answer>(() => {});
      },
      signal: question.signal,
    }).catch((caught: unknown) => caught);
    await asked;
    sdk.controller.abort('server cancelled');
    expect(codeOf(await pending)).toBe('aborted');
  });

  it('hands waitFor a real AbortSignal that survives a copy of the context', async () => {
    const sdk = countedController();
    const question = linkedController(sdk.controller.signal);
    const seen: AbortSignal[] = [];
    const copying: WaitFor = (asked, context) => {
      const copy = { ...context };
      seen.push(copy.signal as AbortSignal);
      return new Promise<Answer>(() => {});
    };
    const pending = askOnce(request, { waitFor: copying, signal: question.signal }).catch(
      (caught: unknown) => caught,
    );
    expect(seen[0]).toBeInstanceOf(AbortSignal);
    question.abort('call ended');
    expect(codeOf(await pending)).toBe('aborted');
    expect(seen[0]!.reason).toBe('call ended');
  });

  it('reports a waitFor that throws, at once or later, as wait_failed', async () => {
    const question = new AbortController();
    const throwsNow: WaitFor = () => {
      throw new Error('boom');
    };
    const rejectsLater: WaitFor = () =>
      new Promise<Answer>((_resolve, reject) => setImmediate(() => reject(new Error('late'))));
    for (const waitFor of [throwsNow, rejectsLater]) {
      const error = await askOnce(request, { waitFor, signal: question.signal }).catch(
        (caught: unknown) => caught,
      );
      expect(codeOf(error)).toBe('wait_failed');
    }
  });
});
