/**
 * The extension seam's `host.request` and `host.ask`: what an extension asks on a call's behalf is
 * built and asked as the bridge asks its own questions. A real v2 client, attached (asking needs
 * no connection).
 *
 * What must hold: `request` is the bridge's mapping with `data.origin` naming the call's target;
 * `ask` lists each Request in `openRequests()` and fires 'request' and 'answer'; the first refusal
 * cancels the others (their waitFor signals abort); a waitFor that throws or answers another id
 * ends in a cancelled Answer, never a rejection; the signal and the host's `close` end every
 * question still open.
 */
import { Client } from '@modelcontextprotocol/client';
import { accept, decline, type Answer, type Request, type WaitFor } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { attachWaitFor, type CallInfo } from './index';

const call = (waitFor: WaitFor): CallInfo => ({
  method: 'tools/call',
  params: { name: 'deploy' },
  era: 'legacy',
  serverName: 'ops',
  waitFor,
  modes: ['form', 'url'],
});

/** A person who never answers: only an abort ends the question (then it is cancelled). */
const waitForAbort: WaitFor = (request, context) =>
  new Promise<Answer>((resolve) => {
    context?.signal?.addEventListener('abort', () =>
      resolve({ id: request.id, ok: false, reason: 'cancelled' }),
    );
  });

function attach(waitFor: WaitFor) {
  const attachment = attachWaitFor(new Client({ name: 'seam', version: '1.0.0' }), { waitFor });
  const { host } = attachment;
  const events: string[] = [];
  host.on('request', (request) => events.push(`request ${request.id}`));
  host.on('answer', ({ request, answer }) =>
    events.push(`answer ${request.id} ${answer.ok ? 'ok' : answer.reason}`),
  );
  const urls = (count: number) =>
    Array.from({ length: count }, (_, index) =>
      host.request(
        { mode: 'url', message: `Sign in ${index}`, url: `https://auth.example.com/${index}` },
        call(waitFor),
      ),
    );
  return { attachment, host, events, urls };
}

describe('ExtensionHost.request and ask', () => {
  it("builds the bridge's Request with the call's origin, lists it while open and reports it", async () => {
    let open: readonly Request[] = [];
    const seen = attach(async (request) => {
      open = seen.host.openRequests();
      return accept(request);
    });
    const [request] = seen.urls(1) as [Request];
    expect(request).toMatchObject({
      kind: 'authorization',
      prompt: 'Sign in 0',
      url: 'https://auth.example.com/0',
      data: { origin: { server: 'ops', era: 'legacy', tool: 'deploy' } },
    });
    expect(request.id).toMatch(/^elc-/);

    await expect(seen.host.ask([request])).resolves.toEqual([accept(request)]);
    expect(open).toEqual([request]);
    expect(seen.host.openRequests()).toEqual([]);
    expect(seen.events).toEqual([`request ${request.id}`, `answer ${request.id} ok`]);
  });

  it("refuses malformed params with the bridge's invalid_params", () => {
    const { host } = attach(async (request) => accept(request));
    expect(() =>
      host.request(
        { mode: 'url', message: 'x' },
        call(async (r) => accept(r)),
      ),
    ).toThrow(expect.objectContaining({ name: 'BridgeError', code: 'invalid_params' }));
  });

  it('the first refusal cancels the others: their signals abort, each ends cancelled', async () => {
    const signals: Array<AbortSignal | undefined> = [];
    const seen = attach((request, context) => {
      signals.push(context?.signal as AbortSignal | undefined);
      return request.prompt === 'Sign in 1'
        ? Promise.resolve(decline(request))
        : waitForAbort(request, context);
    });
    const requests = seen.urls(3);
    const answers = await seen.host.ask(requests);
    expect(answers.map((answer) => [answer.ok, answer.reason])).toEqual([
      [false, 'cancelled'],
      [false, 'declined'],
      [false, 'cancelled'],
    ]);
    // The other questions' signals aborted, so a UI drops them.
    expect([signals[0]?.aborted, signals[2]?.aborted]).toEqual([true, true]);
    expect(seen.host.openRequests()).toEqual([]);
  });

  it('a waitFor that throws or answers another id ends in a cancelled Answer, never a rejection', async () => {
    const seen = attach(async (request) => {
      if (request.prompt === 'Sign in 0') throw new Error('broken UI');
      return accept('some-other-id');
    });
    const answers = await seen.host.ask(seen.urls(2), { waitFor: seen.attachment.host.waitFor });
    expect(answers.map((answer) => [answer.ok, answer.reason])).toEqual([
      [false, 'cancelled'],
      [false, 'cancelled'],
    ]);
  });

  it("the call's own waitFor answers when given", async () => {
    const attached: Request[] = [];
    const own: Request[] = [];
    const seen = attach(async (request) => {
      attached.push(request);
      return accept(request);
    });
    await seen.host.ask(seen.urls(1), {
      waitFor: async (request) => {
        own.push(request);
        return accept(request);
      },
    });
    expect([attached.length, own.length]).toEqual([0, 1]);
  });

  it("the signal, or the host's close (detach), ends every open question", async () => {
    const seen = attach(waitForAbort);
    const controller = new AbortController();
    const byAbort = seen.host.ask(seen.urls(12), { signal: controller.signal });
    await expect.poll(() => seen.host.openRequests().length).toBe(12);
    controller.abort(new Error('gave up'));
    expect((await byAbort).every((answer) => answer.reason === 'cancelled')).toBe(true);

    const byClose = seen.host.ask(seen.urls(2));
    await expect.poll(() => seen.host.openRequests().length).toBe(2);
    seen.attachment.detach();
    expect((await byClose).map((answer) => answer.reason)).toEqual(['cancelled', 'cancelled']);
    expect(seen.host.openRequests()).toEqual([]);
  });
});
