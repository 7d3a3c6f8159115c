/**
 * Every host × upstream combination through the gateway over Streamable HTTP: a v1 host (2025
 * only) and a v2 host pinned to 2026-07-28, in front of the dual-era fixture pinned to either era.
 * Each answers a form and a URL question; a decline and a cancel reach the server.
 */
import { describe, expect, test } from 'vitest';
import { useGatewayOverHttp } from './__fixtures__/gateway';
import { openHost, textOf, type Declared, type HostKind, type Person } from './__fixtures__/hosts';

const combos: Array<[HostKind, 'legacy' | 'modern']> = [
  ['v1', 'legacy'],
  ['v1', 'modern'],
  ['v2-modern', 'legacy'],
  ['v2-modern', 'modern'],
];

describe.each(combos)('host %s × upstream %s', (hostKind, upstreamEra) => {
  const setup = useGatewayOverHttp(upstreamEra);

  const withHost = async <T>(
    person: Person,
    body: (host: Awaited<ReturnType<typeof openHost>>) => Promise<T>,
    declared: Declared = 'both',
  ) => {
    const host = await openHost(hostKind, { url: setup.endpoint.url }, person, declared);
    try {
      return await body(host);
    } finally {
      await host.close();
    }
  };

  test('the upstream era is the one pinned, and the host sees the upstream tools as they are', async () => {
    expect(setup.gateway.connection.era).toBe(upstreamEra);
    await withHost(
      async () => ({ action: 'cancel' }),
      async (host) => {
        const { tools } = await host.listTools();
        expect(tools.map((tool) => tool.name)).toContain('ask_form');
        expect(tools.map((tool) => tool.name)).toContain('fan_out');
      },
    );
  });

  test('a form question is answered', async () => {
    await withHost(
      async () => ({ action: 'accept', content: { name: 'Ada', age: 36, color: 'red' } }),
      async (host) => {
        const result = await host.callTool('ask_form');
        expect(textOf(result)).toBe('accept:{"name":"Ada","age":36,"color":"red"}');
        expect(host.asked).toHaveLength(1);
        expect(host.asked[0]).toMatchObject({
          message: 'Who are you?',
          requestedSchema: {
            properties: { name: { type: 'string', title: 'Name', minLength: 1 } },
          },
        });
      },
    );
  });

  test('a URL question is answered (consent), the URL shown unchanged', async () => {
    await withHost(
      async () => ({ action: 'accept' }),
      async (host) => {
        const result = await host.callTool('ask_url');
        expect(textOf(result)).toBe('accept');
        expect(host.asked[0]).toMatchObject({
          mode: 'url',
          message: 'Sign in to continue',
          url: 'https://example.com/login?flow=1',
        });
        // A legacy host gets an elicitationId (its revision requires one), a modern host none.
        expect(typeof host.asked[0]?.['elicitationId']).toBe(
          hostKind === 'v1' ? 'string' : 'undefined',
        );
      },
    );
  });

  test.each(['decline', 'cancel'])('a %s reaches the server', async (action) => {
    await withHost(
      async () => ({ action }),
      async (host) => {
        expect(textOf(await host.callTool('ask_form'))).toBe(action);
      },
    );
  });

  test('several questions of one round reach the host and each answer its own', async () => {
    await withHost(
      async (params) => ({
        action: 'accept',
        content: { value: String(params['message']).slice(-2) },
      }),
      async (host) => {
        const result = await host.callTool('fan_out', { count: 3 });
        expect(textOf(result)).toBe(
          'q1=accept:{"value":"q1"} q2=accept:{"value":"q2"} q3=accept:{"value":"q3"}',
        );
      },
    );
  });

  test.each([
    ['no elicitation at all', 'none', 'ask_form', 'form'],
    ['form only', 'form', 'ask_url', 'url'],
  ] as const)(
    'a host that declared %s: the question is declined upstream, nobody is asked, the log says so',
    async (_, declared, tool, mode) => {
      const before = setup.logs.length;
      await withHost(
        async () => ({ action: 'accept', content: { name: 'never' } }),
        async (host) => {
          expect(textOf(await host.callTool(tool))).toBe('decline');
          expect(host.asked).toEqual([]);
        },
        declared,
      );
      expect(setup.logs.slice(before).join('\n')).toMatch(
        new RegExp(`declared no elicitation ${mode} mode: declined upstream`),
      );
    },
  );
});
