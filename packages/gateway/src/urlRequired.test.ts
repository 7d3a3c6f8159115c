/**
 * What 2026-07-28 removed, kept toward the host that needs it: a 2025 server's -32042
 * (URLElicitationRequiredError) reaches a 2025 host unchanged and its completion notification
 * follows; toward a 2026-07-28 host (which must never see -32042) each listed URL becomes an
 * input_required question, and the call is retried once the person consented and the server said
 * the URL step is complete. A 2026-07-28 server's URL question, pushed to a 2025 host, is followed
 * by `notifications/elicitation/complete` once the server moved past it. Real servers (v1 and v2
 * SDKs) and real hosts (a v1 client, a v2 client pinned to 2026-07-28) over Streamable HTTP.
 */
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { useGatewayInFront, useGatewayOverHttp } from './__fixtures__/gateway';
import { openHost, textOf, type Declared, type HostKind, type Person } from './__fixtures__/hosts';
import { NEEDS_URL, startLegacyHttpServer } from './__fixtures__/legacyServer';
import { startKeyedServer, VISIT_URL } from './__fixtures__/keyedServer';
import type { Clock } from './index';

/** A clock whose timers never fire: a retry can only follow the server's completion. */
const stoppedClock: Clock = { setTimeout: () => 0, clearTimeout: () => undefined };

async function withHost<T>(
  kind: HostKind,
  url: string,
  person: Person,
  body: (host: Awaited<ReturnType<typeof openHost>>) => Promise<T>,
  declared: Declared = 'both',
): Promise<T> {
  const host = await openHost(kind, { url }, person, declared);
  try {
    return await body(host);
  } finally {
    await host.close();
  }
}

/** A v1 host that records the elicitation completions it is sent. */
async function openCompletionHost(url: string, modes: 'both' | 'form' = 'both') {
  const completed: string[] = [];
  let arrived: (() => void) | undefined;
  const client = new V1Client(
    { name: 'completion-host', version: '1.0.0' },
    { capabilities: { elicitation: modes === 'both' ? { form: {}, url: {} } : { form: {} } } },
  );
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    completed.push(notification.params.elicitationId);
    arrived?.();
  });
  await client.connect(new V1Http(new URL(url)));
  const next = () =>
    new Promise<void>((resolve) => {
      arrived = resolve;
    });
  return { client, completed, next };
}

/** What a call rejected with: its JSON-RPC code, message and data. */
async function failure(call: Promise<unknown>) {
  const error = (await call.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { code?: number; message?: string; data?: unknown } | undefined;
  expect(error).toBeDefined();
  return { code: error?.code, message: String(error?.message), data: error?.data };
}

describe('a 2025 server answers a call with -32042', () => {
  const setup = useGatewayInFront(startLegacyHttpServer, undefined, { clock: stoppedClock });

  test('a 2025 host that declared URL mode gets it unchanged, then the completion, and its retry completes', async () => {
    const direct = await openCompletionHost(setup.upstream.url);
    const host = await openCompletionHost(setup.endpoint.url);
    try {
      const expected = await failure(direct.client.callTool({ name: 'needs_url', arguments: {} }));
      expect(expected.code).toBe(-32042);
      const got = await failure(host.client.callTool({ name: 'needs_url', arguments: {} }));
      // The same error as the server's own (each session lists its own visit URL).
      const listed = (got.data as { elicitations: Array<Record<string, unknown>> }).elicitations;
      expect(got.code).toBe(-32042);
      expect(got.message).toBe(expected.message);
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ mode: 'url', message: NEEDS_URL.message });
      expect(listed[0]?.['elicitationId']).toMatch(/^consent-/);
      const completion = host.next();
      expect((await fetch(String(listed[0]?.['url']))).status).toBe(200);
      await completion;
      expect(host.completed).toEqual([listed[0]?.['elicitationId']]);
      const retried = await host.client.callTool({ name: 'needs_url', arguments: {} });
      expect(textOf(retried)).toBe('done after consent');
    } finally {
      await direct.client.close();
      await host.client.close();
    }
  });

  test('a 2026-07-28 host is asked the URL instead (never -32042); the retry follows the completion', async () => {
    await withHost(
      'v2-modern',
      setup.endpoint.url,
      async (params) => {
        // The person visits the URL (the server then sends its completion), then consents.
        expect((await fetch(String(params['url']))).status).toBe(200);
        return { action: 'accept' };
      },
      async (host) => {
        expect(textOf(await host.callTool('needs_url'))).toBe('done after consent');
        expect(host.asked).toHaveLength(1);
        expect(host.asked[0]).toMatchObject({ mode: 'url', message: NEEDS_URL.message });
        expect(host.asked[0]?.['url']).toMatch(/\/visit\//);
        expect(host.asked[0]?.['elicitationId']).toBeUndefined();
      },
    );
  });

  test.each(['decline', 'cancel'])(
    'a 2026-07-28 host that answers %s: the call fails saying so, not with -32042',
    async (action) => {
      await withHost(
        'v2-modern',
        setup.endpoint.url,
        async () => ({ action }),
        async (host) => {
          const got = await failure(host.callTool('needs_url'));
          expect(got.code).not.toBe(-32042);
          expect(got.message).toMatch(
            new RegExp(`the person ${action === 'decline' ? 'declined' : 'cancelled'} the URL`),
          );
        },
      );
    },
  );

  test('a 2025 host that declared form only is not sent -32042: the question is declined, the log says so', async () => {
    const before = setup.logs.length;
    await withHost(
      'v1',
      setup.endpoint.url,
      async () => ({ action: 'accept' }),
      async (host) => {
        const got = await failure(host.callTool('needs_url'));
        expect(got.code).not.toBe(-32042);
        expect(got.message).toMatch(/the person declined the URL/);
        expect(host.asked).toEqual([]);
      },
      'form',
    );
    expect(setup.logs.slice(before).join('\n')).toMatch(/declared no elicitation url mode/);
  });
});

describe('a 2025 server sends a hostile -32042', () => {
  const setup = useGatewayInFront(startLegacyHttpServer, undefined, { clock: stoppedClock });

  test.each([
    ['data.elicitations that is not a list', {}],
    ['more elicitations than a call may ask (16)', { count: 17 }],
  ])('%s: a 2026-07-28 host is told, asked nothing, never sent -32042', async (_, args) => {
    await withHost(
      'v2-modern',
      setup.endpoint.url,
      async () => ({ action: 'accept' }),
      async (host) => {
        const got = await failure(host.callTool('needs_url_bad', args));
        expect(got.code).not.toBe(-32042);
        expect(got.message).toMatch(/URLElicitationRequiredError is unusable/);
        expect(host.asked).toEqual([]);
      },
    );
  });

  test('a 2025 host with URL mode gets it as the server sent it (its own to refuse)', async () => {
    await withHost(
      'v1',
      setup.endpoint.url,
      async () => ({ action: 'accept' }),
      async (host) => {
        const got = await failure(host.callTool('needs_url_bad', { count: 17 }));
        expect(got.code).toBe(-32042);
        expect((got.data as { elicitations: unknown[] }).elicitations).toHaveLength(17);
      },
    );
  });
});

describe('a 2025 server that asks for the same URL again after consent', () => {
  // The completion never comes: the retry follows the bound, at once.
  const setup = useGatewayInFront(startLegacyHttpServer, undefined, { completionMs: 0 });

  test('the call ends (no loop) with an error saying so', async () => {
    let asked = 0;
    await withHost(
      'v2-modern',
      setup.endpoint.url,
      async () => {
        asked += 1;
        return { action: 'accept' };
      },
      async (host) => {
        const got = await failure(host.callTool('needs_url_always'));
        expect(got.message).toMatch(/still requires "https:\/\/example.com\/consent"/);
        expect(asked).toBe(1);
      },
    );
  });
});

describe('a 2026-07-28 server asks a 2025 host for a URL', () => {
  const setup = useGatewayOverHttp('modern');

  test('accepted: the completion under the pushed elicitationId comes before the result', async () => {
    const host = await openCompletionHost(setup.endpoint.url);
    const pushed: string[] = [];
    host.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      pushed.push(String((request.params as { elicitationId?: string }).elicitationId));
      return { action: 'accept' };
    });
    try {
      const result = await host.client.callTool({ name: 'ask_url', arguments: {} });
      expect(textOf(result)).toBe('accept');
      expect(pushed).toHaveLength(1);
      expect(host.completed).toEqual(pushed);
    } finally {
      await host.client.close();
    }
  });

  test('declined: no completion', async () => {
    const host = await openCompletionHost(setup.endpoint.url);
    host.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    try {
      const result = await host.client.callTool({ name: 'ask_url', arguments: {} });
      expect(textOf(result)).toBe('decline');
      expect(host.completed).toEqual([]);
    } finally {
      await host.client.close();
    }
  });
});

describe('a 2026-07-28 server asks a 2025 host for the same URL in three rounds', () => {
  const setup = useGatewayInFront(startKeyedServer, undefined);

  test('every push carries the same elicitationId; one completion, once the server moved past it', async () => {
    const host = await openCompletionHost(setup.endpoint.url);
    const pushed: Array<{ id: string; completedBefore: number }> = [];
    host.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      expect(request.params).toMatchObject({ mode: 'url', url: VISIT_URL });
      pushed.push({
        id: String((request.params as { elicitationId?: string }).elicitationId),
        completedBefore: host.completed.length,
      });
      return { action: 'accept' };
    });
    try {
      const result = await host.client.callTool({ name: 'visit', arguments: { times: 3 } });
      expect(textOf(result)).toBe('visited');
      expect(pushed).toHaveLength(3);
      expect(new Set(pushed.map((push) => push.id)).size).toBe(1);
      // Not complete while the server still asked for it.
      expect(pushed.map((push) => push.completedBefore)).toEqual([0, 0, 0]);
      expect(host.completed).toEqual([pushed[0]?.id]);
    } finally {
      await host.client.close();
    }
  });
});
