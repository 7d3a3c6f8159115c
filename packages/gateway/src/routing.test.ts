/**
 * A 2025 server's push names no call, and one gateway serves many hosts: two hosts calling the same
 * tool of a legacy upstream at once must each see only their own question, and each call must get
 * its own answer. Real SDK clients as hosts (v1 sessions, v2 pinned to 2026-07-28), a v1-SDK
 * server upstream over Streamable HTTP and over stdio.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startLegacyHttpServer, type LegacyHttpServer } from './__fixtures__/legacyServer';
import { gatewayTables } from './__fixtures__/gatewayTables';
import { openHost, textOf, tsxBinary, type Host, type HostKind } from './__fixtures__/hosts';
import {
  createGateway,
  serveHttp,
  type Gateway,
  type GatewayOptions,
  type HttpEndpoint,
} from './index';

const legacyStdio = fileURLToPath(new URL('./__fixtures__/legacyServerStdio.ts', import.meta.url));

interface Setup {
  upstream?: LegacyHttpServer;
  gateway: Gateway;
  endpoint: HttpEndpoint;
  logs: string[];
}

function useGateway(kind: 'http' | 'stdio', options: Partial<GatewayOptions> = {}) {
  let running: Setup | undefined;
  beforeAll(async () => {
    const logs: string[] = [];
    const upstream = kind === 'http' ? await startLegacyHttpServer() : undefined;
    const gateway = await createGateway({
      upstream:
        upstream === undefined
          ? { command: tsxBinary, args: [legacyStdio] }
          : { url: upstream.url },
      log: (line) => logs.push(line),
      ...options,
    });
    running = {
      ...(upstream ? { upstream } : {}),
      gateway,
      endpoint: await serveHttp(gateway),
      logs,
    };
  });
  afterAll(async () => {
    await running?.endpoint.close();
    await running?.gateway.close();
    await running?.upstream?.close();
  });
  return () => {
    if (running === undefined) throw new Error('read the setup inside a test');
    return running;
  };
}

/**
 * Two hosts, each person answering with their own answer once both questions are out, so both
 * calls are open at once. (Where a question went to the wrong host, the other never arrives: the
 * person then answers after a bound, and the assertions on who saw what fail.)
 */
async function twoHostsAtOnce(url: string, kinds: [HostKind, HostKind]) {
  const hosts: Host[] = [];
  let asked = 0;
  const person = (answer: string) => async () => {
    asked += 1;
    await vi
      .waitFor(() => expect(asked).toBeGreaterThanOrEqual(2), { timeout: 5_000 })
      .catch(() => undefined);
    return { action: 'accept', content: { answer } };
  };
  try {
    hosts.push(await openHost(kinds[0], { url }, person('from-A')));
    hosts.push(await openHost(kinds[1], { url }, person('from-B')));
    const [a, b] = await Promise.all([
      hosts[0]!.callTool('ask_for', { who: 'A' }),
      hosts[1]!.callTool('ask_for', { who: 'B' }),
    ]);
    return {
      a: textOf(a),
      b: textOf(b),
      asked: hosts.map((host) => host.asked.map((p) => p['message'])),
    };
  } finally {
    // As a host leaving does: its HTTP session is ended (DELETE), then the client closed.
    const end = (host: Host) =>
      (
        host.raw.transport as { terminateSession?: () => Promise<void> } | undefined
      )?.terminateSession?.();
    await Promise.all(hosts.map(async (host) => (await end(host), await host.close())));
  }
}

const pairs: Array<[HostKind, HostKind]> = [
  ['v1', 'v1'],
  ['v2-modern', 'v2-modern'],
  ['v1', 'v2-modern'],
];

describe('a legacy upstream over Streamable HTTP', () => {
  const setup = useGateway('http');

  test.each(pairs)(
    'hosts %s and %s: each person sees only their own question',
    async (...kinds) => {
      const { a, b, asked } = await twoHostsAtOnce(setup().endpoint.url, kinds);
      expect(asked).toEqual([['A question for A'], ['A question for B']]);
      expect([a, b]).toEqual(['A:from-A', 'B:from-B']);
      // Every upstream session the hosts had is closed with them (a modern host's with its call);
      // besides the first connection, only the spare kept for the next such call stays open.
      await vi.waitFor(() =>
        expect(setup().upstream!.open).toBeLessThanOrEqual(
          1 + gatewayTables(setup().gateway).spareSessions,
        ),
      );
    },
  );
});

describe('a legacy upstream over stdio, served to hosts over HTTP', () => {
  const setup = useGateway('stdio');

  test.each(pairs)(
    'hosts %s and %s: each person sees only their own question',
    async (...kinds) => {
      const { a, b, asked } = await twoHostsAtOnce(setup().endpoint.url, kinds);
      expect(asked).toEqual([['A question for A'], ['A question for B']]);
      expect([a, b]).toEqual(['A:from-A', 'B:from-B']);
    },
  );
});
