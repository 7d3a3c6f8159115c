/**
 * The gateway's requestState toward a modern host: sealed (a forged or edited one is refused with
 * -32602), single use (a replay is refused), naming one held call; and a held call that outlives
 * its bound ends on both sides — upstream (the question answered cancel, the call cancelled) and
 * toward the host (its retry refused; a legacy host's pushed question withdrawn and its call
 * failed). Time is the test's clock: nothing here waits for real time to decide an outcome.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { useGatewayOverHttp } from './__fixtures__/gateway';
import { runClockUntilSettled, useTestClock } from '../../mcp-bridge/src/__fixtures__/testClock';
import { modernPost, openHost, textOf } from './__fixtures__/hosts';

const HOLD = 60_000;

const handshake = new Set(['initialize', 'notifications/initialized']);

describe.each(['legacy', 'modern'] as const)('upstream %s', (upstreamEra) => {
  const setup = useGatewayOverHttp(upstreamEra, { holdMs: HOLD });
  // The host sees a 2026-07-28 server's own key; a 2025 push has none, so the gateway's.
  const key = upstreamEra === 'modern' ? 'profile' : 'q1';
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * What the upstream got after index `from`: answers to its pushes and cancellations (not the
   * handshake of the spare session a 2025 upstream gets once a sessionless call ended).
   */
  const endsSeenUpstream = (from: number) =>
    setup.upstream.received
      .slice(from)
      .filter(({ message }) => !handshake.has(String(message.method)))
      .map(({ message }) =>
        message.method === 'notifications/cancelled'
          ? 'cancelled'
          : message.method === 'tools/call'
            ? `retry:${JSON.stringify(message.params?.['inputResponses'] ?? null)}`
            : JSON.stringify((message as { result?: unknown }).result ?? null),
      );

  test('a retry with the sealed state completes; the same state again is refused (-32602)', async () => {
    const first = await modernPost(setup.endpoint.url, 1, 'ask_form');
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        [key]: { method: 'elicitation/create', params: { message: 'Who are you?' } },
      },
    });
    const requestState = first.result?.['requestState'];
    expect(typeof requestState).toBe('string');
    const answer = { [key]: { action: 'accept', content: { name: 'Ada' } } };
    const second = await modernPost(setup.endpoint.url, 2, 'ask_form', {
      inputResponses: answer,
      requestState,
    });
    expect(textOf(second.result)).toBe('accept:{"name":"Ada"}');
    const replay = await modernPost(setup.endpoint.url, 3, 'ask_form', {
      inputResponses: answer,
      requestState,
    });
    expect(replay.error?.code).toBe(-32602);
    expect(replay.result).toBeUndefined();
  });

  test.each([
    ['edited', (state: string) => `${state.slice(0, 4)}A${state.slice(5)}`],
    ['extended', (state: string) => `${state}-TAMPERED`],
    [
      'signed with another key',
      (state: string) => {
        const body = state.slice(0, state.indexOf('.'));
        return `${body}.${createHmac('sha256', randomBytes(32)).update(body).digest('base64url')}`;
      },
    ],
  ])('a %s state is refused (-32602) and the held call stays answerable', async (_, forge) => {
    const first = await modernPost(setup.endpoint.url, 10, 'ask_form');
    const requestState = String(first.result?.['requestState']);
    const answer = { [key]: { action: 'accept', content: { name: 'Eve' } } };
    const forged = await modernPost(setup.endpoint.url, 11, 'ask_form', {
      inputResponses: answer,
      requestState: forge(requestState),
    });
    expect(forged.error?.code).toBe(-32602);
    const real = await modernPost(setup.endpoint.url, 12, 'ask_form', {
      inputResponses: answer,
      requestState,
    });
    expect(textOf(real.result)).toBe('accept:{"name":"Eve"}');
  });

  test('a held call that outlives its bound ends upstream, and its state is refused after', async () => {
    useTestClock();
    const first = await runClockUntilSettled(modernPost(setup.endpoint.url, 20, 'ask_form'), 10);
    expect(first.result?.['resultType']).toBe('input_required');
    expect(setup.gateway.held).toBe(1);
    const mark = setup.upstream.received.length;
    await vi.advanceTimersByTimeAsync(HOLD);
    expect(setup.gateway.held).toBe(0);
    expect(setup.logs.at(-1)).toMatch(/expired after 60000 ms/);
    // A legacy upstream's push is answered cancel and its call cancelled; a modern upstream's loop
    // just ends (nothing is in flight between its legs): never a retry.
    await vi.waitFor(() => {
      if (upstreamEra === 'legacy')
        expect(endsSeenUpstream(mark).sort()).toEqual(['cancelled', '{"action":"cancel"}']);
    });
    expect(endsSeenUpstream(mark).some((end) => end.startsWith('retry'))).toBe(false);
    const late = await runClockUntilSettled(
      modernPost(setup.endpoint.url, 21, 'ask_form', {
        inputResponses: { [key]: { action: 'accept', content: { name: 'Late' } } },
        requestState: first.result?.['requestState'],
      }),
      10,
    );
    expect(late.error?.code).toBe(-32602);
  });

  test("a legacy host's pushed question that outlives its bound is withdrawn and its call fails", async () => {
    useTestClock();
    // The person never answers (the v1 SDK does not abort its handler on the withdrawal; what
    // the host receives is checked instead).
    const host = await runClockUntilSettled(
      openHost('v1', { url: setup.endpoint.url }, () => new Promise(() => undefined)),
      10,
    );
    try {
      const call = host.callTool('ask_form');
      call.catch(() => undefined);
      await vi.waitFor(() => expect(host.asked).toHaveLength(1));
      const mark = setup.upstream.received.length;
      await vi.advanceTimersByTimeAsync(HOLD);
      await expect(runClockUntilSettled(call, 10)).rejects.toThrow(
        /did not answer within 60000 ms/,
      );
      expect(host.notified).toContain('notifications/cancelled');
      await vi.waitFor(() => {
        if (upstreamEra === 'legacy')
          expect(endsSeenUpstream(mark).sort()).toEqual(['cancelled', '{"action":"cancel"}']);
      });
      expect(endsSeenUpstream(mark).some((end) => end.startsWith('retry'))).toBe(false);
    } finally {
      vi.useRealTimers();
      await host.close();
    }
  });
});
