/**
 * A host-side abort ends the upstream call and its questions: the host cancels its call while the
 * upstream works (a slow tool) or while a question is open (a legacy host's pushed question).
 */
import { describe, expect, test, vi } from 'vitest';
import { useGatewayOverHttp } from './__fixtures__/gateway';
import { openHost, type HostKind } from './__fixtures__/hosts';

describe.each(['legacy', 'modern'] as const)('upstream %s', (upstreamEra) => {
  const setup = useGatewayOverHttp(upstreamEra);

  const methodsAfter = (from: number) =>
    setup.upstream.received
      .slice(from)
      .map(({ message }) => message.method ?? JSON.stringify(message['result']));

  test.each(['v1', 'v2-modern'] as HostKind[])(
    'host %s cancels while the upstream works: the upstream call is cancelled',
    async (kind) => {
      const host = await openHost(kind, { url: setup.endpoint.url }, async () => ({
        action: 'cancel',
      }));
      try {
        const abort = new AbortController();
        const mark = setup.upstream.received.length;
        const call = host.callTool('slow', { ms: 30_000 }, { signal: abort.signal });
        call.catch(() => undefined);
        await vi.waitFor(() => expect(methodsAfter(mark)).toContain('tools/call'));
        abort.abort();
        await expect(call).rejects.toThrow();
        // The upstream call ends: over HTTP a modern-era cancel closes the call's stream (the spec's
        // way; nothing is POSTed), a legacy one sends notifications/cancelled.
        await vi.waitFor(() => expect(setup.gateway.open).toBe(0));
        if (upstreamEra === 'legacy')
          await vi.waitFor(() => expect(methodsAfter(mark)).toContain('notifications/cancelled'));
      } finally {
        await host.close();
      }
    },
  );

  test('a legacy host cancels with a question open: the push is withdrawn, the upstream question and call end', async () => {
    let asked!: () => void;
    const questionOpen = new Promise<void>((resolve) => (asked = resolve));
    const host = await openHost('v1', { url: setup.endpoint.url }, () => {
      asked();
      return new Promise(() => undefined);
    });
    try {
      const abort = new AbortController();
      const call = host.callTool('ask_form', {}, { signal: abort.signal });
      call.catch(() => undefined);
      await questionOpen;
      const mark = setup.upstream.received.length;
      abort.abort();
      await expect(call).rejects.toThrow();
      await vi.waitFor(() => expect(host.notified).toContain('notifications/cancelled'));
      await vi.waitFor(() => {
        // legacy: its push answered cancel and its call cancelled; modern: its loop ends (nothing
        // is in flight between legs), never retried.
        if (upstreamEra === 'legacy')
          expect(methodsAfter(mark).sort()).toEqual([
            'notifications/cancelled',
            '{"action":"cancel"}',
          ]);
      });
      expect(methodsAfter(mark)).not.toContain('tools/call');
      expect(setup.gateway.held).toBe(0);
      await vi.waitFor(() => expect(setup.gateway.open).toBe(0));
    } finally {
      await host.close();
    }
  });
});
