/**
 * `askOnce`, the step every question of both eras takes through the host's waitFor: a waitFor that
 * answers at once costs no listener on the SDK's signal, one that waits is raced against it, and
 * the context a host gets carries a real AbortSignal even when the host copies the context.
 */
import { accept, type Answer, type Request, type WaitFor } from '@waitfor/core';
import { QuietSignal } from '@waitfor/runtime';
import { describe, expect, it } from 'vitest';
import { askOnce } from './askPerson';
import { BridgeError } from './bridgeError';

const request: Request = { id: 'elc-1', kind: 'input', prompt: 'Go ahead?' };

/** A real AbortController standing for the SDK's, counting the listeners added to its signal. */
function sdkController() {
  const controller = new AbortController();
  let added = 0;
  const add = controller.signal.addEventListener.bind(controller.signal);
  controller.signal.addEventListener = ((type: string, listener: () => void) => {
    added += 1;
    add(type, listener);
  }) as never;
  return { controller, added: () => added };
}

const codeOf = (error: unknown) => (BridgeError.isInstance(error) ? error.code : error);

describe('askOnce', () => {
  it('takes an answer given at once without listening to the SDK signal', async () => {
    const sdk = sdkController();
    const question = new QuietSignal(sdk.controller.signal);
    const answer = await askOnce(request, {
      waitFor: async (asked) => accept(asked, { confirm: true }),
      signal: question.signal,
    });
    expect(answer).toEqual({ id: 'elc-1', ok: true, data: { confirm: true } });
    expect(sdk.added()).toBe(0);
  });

  it('ends at once a wait that starts after the SDK signal aborted', async () => {
    const sdk = sdkController();
    sdk.controller.abort('server cancelled');
    const question = new QuietSignal(sdk.controller.signal);
    const seen: AbortSignal[] = [];
    const error = await askOnce(request, {
      waitFor: (_asked, context) => {
        seen.push(context!.signal as AbortSignal);
        return new Promise<Answer>(() => {});
      },
      signal: question.signal,
    }).catch((caught: unknown) => caught);
    expect(codeOf(error)).toBe('aborted');
    // The host's signal says so as soon as it looks.
    expect(seen[0]!.aborted).toBe(true);
    expect(seen[0]!.reason).toBe('server cancelled');
  });

  it('ends a wait the host never settles when the SDK signal aborts', async () => {
    const sdk = sdkController();
    const question = new QuietSignal(sdk.controller.signal);
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
    // Let askOnce find the wait unsettled and start listening.
    await expect.poll(() => sdk.added()).toBe(1);
    sdk.controller.abort('server cancelled');
    expect(codeOf(await pending)).toBe('aborted');
  });

  it('hands waitFor a real AbortSignal that survives a copy of the context', async () => {
    const sdk = sdkController();
    const question = new QuietSignal(sdk.controller.signal);
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
    const question = new QuietSignal();
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
