/**
 * Same era and across eras: a 2026-07-28 server's elicitation params reach the host whole — the
 * server's `_meta` and the fields no revision defines come as the server sent them, to a v2 host
 * pinned to 2026-07-28 (an inputRequest of its input_required loop) and to a v1 host (a pushed
 * elicitation/create), as the host's wire shows; the host's handler gets what its SDK keeps of
 * them (both SDKs' schemas drop the fields they do not define, and v2 the `_meta` of a URL
 * inputRequest, before any handler runs): a form's `_meta`, in both.
 * Only what the gateway owns is its own: an `elicitationId` (not a 2026-07-28 field) never
 * reaches a 2026-07-28 host, and a 2025 host's URL question is pushed under an id the gateway
 * made up, whose completion it owes the host.
 */
import { describe, expect, test } from 'vitest';
import {
  ANNOTATED_FIELDS as DUAL_ERA_FIELDS,
  startDualEraHttpServer,
} from '../../mcp-bridge/src/__fixtures__/dualEraServer';
import { useGatewayInFront } from './__fixtures__/gateway';
import { openHost, textOf, type Host, type HostKind } from './__fixtures__/hosts';
import { paramsOf } from './elicitParams';
import {
  ANNOTATED_FIELDS,
  ANNOTATED_META,
  startKeyedServer,
  VISIT_URL,
} from './__fixtures__/keyedServer';

const { elicitationId: serverId, ...unknownFields } = ANNOTATED_FIELDS;

type Params = Record<string, unknown>;

/** The elicitation params the host's transport delivered: pushed, or in an input_required result. */
function wireParams(host: Host): Params[] {
  return host.received.flatMap((message) => {
    const { method, params, result } = message as {
      method?: string;
      params?: Params;
      result?: Params;
    };
    if (method === 'elicitation/create') return [params!];
    const inputRequests = (result?.['inputRequests'] ?? {}) as Record<
      string,
      { method: string; params: Params }
    >;
    return Object.values(inputRequests).flatMap((entry) =>
      entry.method === 'elicitation/create' ? [entry.params] : [],
    );
  });
}

describe.each<HostKind>(['v2-modern', 'v1'])(
  'a %s host in front of a 2026-07-28 server',
  (kind) => {
    const setup = useGatewayInFront(startKeyedServer, 'modern');

    const ask = async (mode: 'form' | 'url', answer: Record<string, unknown>) => {
      const host = await openHost(kind, { url: setup.endpoint.url }, async () => answer as never);
      try {
        const text = textOf(await host.callTool('annotated', { mode }));
        return { text, asked: host.asked, wire: wireParams(host), notified: host.notified };
      } finally {
        await host.close();
      }
    };

    test("a form question carries the server's _meta and unknown fields; the answer reaches the server", async () => {
      const { text, asked, wire } = await ask('form', {
        action: 'accept',
        content: { value: 'hi' },
      });
      expect(text).toBe('accept:{"value":"hi"}');
      const question = {
        mode: 'form',
        message: 'Write a note',
        requestedSchema: { type: 'object', properties: { value: { type: 'string' } } },
      };
      expect(wire).toEqual([{ ...question, ...unknownFields, _meta: ANNOTATED_META }]);
      expect(asked).toEqual([{ ...question, _meta: ANNOTATED_META }]);
    });

    test("a URL question carries them too; its elicitationId is the gateway's, never the server's", async () => {
      const { text, asked, wire, notified } = await ask('url', { action: 'accept' });
      expect(text).toBe('accept');
      expect(wire).toHaveLength(1);
      const { elicitationId, ...rest } = wire[0]!;
      const question = { mode: 'url', message: 'Open the note', url: VISIT_URL };
      expect(rest).toEqual({ ...question, ...unknownFields, _meta: ANNOTATED_META });
      // The handler gets what the host's SDK keeps of it (v2 keeps no _meta of a URL inputRequest).
      expect(asked).toHaveLength(1);
      expect(wire[0]).toMatchObject(asked[0]!);
      expect(asked[0]).toMatchObject(question);
      if (kind === 'v2-modern') expect(elicitationId).toBeUndefined();
      else {
        // A 2025 host's URL question needs an id it will hear completed: the gateway's own.
        expect(typeof elicitationId).toBe('string');
        expect(elicitationId).not.toBe(serverId);
        expect(notified).toContain('notifications/elicitation/complete');
      }
    });

    test('a decline reaches the server', async () => {
      expect((await ask('form', { action: 'decline' })).text).toBe('decline');
    });
  },
);

describe.each<HostKind>(['v2-modern', 'v1'])('a %s host in front of a 2025 server', (kind) => {
  const setup = useGatewayInFront(startDualEraHttpServer, 'legacy');

  test("a pushed question carries the server's _meta, without the upstream request's own keys", async () => {
    const host = await openHost(kind, { url: setup.endpoint.url }, async (params) => ({
      action: 'accept',
      content: { note: String((params['_meta'] as Record<string, unknown>)['example.com/trace']) },
    }));
    try {
      expect(textOf(await host.callTool('ask_annotated'))).toBe('accept:{"note":"trace-7"}');
      // The push's progressToken named the gateway's upstream request: the host never sees it.
      // (`priority` the gateway's own SDK client dropped, as any 2025 client's schema does.)
      expect(wireParams(host)).toEqual([
        {
          mode: 'form',
          message: 'Write a note',
          requestedSchema: { type: 'object', properties: { note: { type: 'string' } } },
          _meta: DUAL_ERA_FIELDS._meta,
        },
      ]);
    } finally {
      await host.close();
    }
  });
});

describe('paramsOf, with what a hostile server may send', () => {
  test('keys are kept as own keys, and what the gateway owns is never taken from the server', () => {
    const raw = JSON.parse(
      '{"mode":"url","message":"m","url":"https://example.com","elicitationId":"theirs",' +
        '"task":{"ttl":1},"__proto__":{"polluted":true},"_meta":{"progressToken":1}}',
    ) as Record<string, unknown>;
    const request = {
      id: 'elc-1',
      kind: 'authorization' as const,
      prompt: 'm',
      url: 'https://example.com',
      data: { origin: { server: 'upstream', era: 'modern' } },
    };
    const params = paramsOf(request, raw);
    expect(Object.hasOwn(params, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(params).sort()).toEqual(['__proto__', 'message', 'mode', 'url']);
  });
});
