/**
 * On a modern-era (2026-07-28) connection legacy-spec changes nothing: the same v2 client gets the same
 * result and waitFor sees the same Requests with and without it, and it subscribes to no notification.
 * Real servers: the bridge's dual-era fixture over Streamable HTTP, and this package's v2 fixture over stdio.
 */
import { accept, type Request } from '@waitfor/core';
import { connect, type BridgeExtension, type ExtensionHost } from '@waitfor/mcp-bridge';
import { createLegacySpec } from './index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDualEraHttpServer,
  type DualEraHttpServer,
} from '../../mcp-bridge/src/__fixtures__/dualEraServer';
import { fixtureServer, openStdio } from './__fixtures__/openConnection';

/** Run legacy-spec's setup with a host that records every notification subscription. */
function recordingSubscriptions(extension: BridgeExtension, methods: string[]): BridgeExtension {
  return {
    ...extension,
    setup: (host) =>
      extension.setup?.(
        new Proxy(host, {
          get(target, key) {
            if (key === 'onNotification') {
              return (method: string, handler: (params: Record<string, unknown>) => void) => {
                methods.push(method);
                return target.onNotification(method, handler);
              };
            }
            return Reflect.get(target, key) as unknown;
          },
        }) as ExtensionHost,
      ),
  };
}

interface Run {
  era: string;
  result: Record<string, unknown>;
  requests: Request[];
}

const withoutId = ({ id: _id, ...rest }: Request) => rest;

type Caller = (
  extensions: BridgeExtension[],
  waitFor: (request: Request) => Promise<ReturnType<typeof accept>>,
) => Promise<Omit<Run, 'requests'>>;

async function compare(call: Caller) {
  const runOnce = async (extensions: BridgeExtension[]): Promise<Run> => {
    const requests: Request[] = [];
    const outcome = await call(extensions, async (request) => {
      requests.push(request);
      return accept(request);
    });
    return { ...outcome, requests };
  };
  const plain = await runOnce([]);
  const legacy = createLegacySpec();
  const subscribed: string[] = [];
  const extended = await runOnce([recordingSubscriptions(legacy.extension, subscribed)]);

  expect(plain.era).toBe('modern');
  expect(extended.era).toBe('modern');
  expect(extended.result).toEqual(plain.result);
  expect(plain.requests).toHaveLength(1);
  expect(extended.requests.map(withoutId)).toEqual(plain.requests.map(withoutId));
  expect(extended.requests[0]?.data).not.toHaveProperty('elicitationId');
  expect(subscribed).toEqual([]);
  expect(legacy.getSnapshot()).toEqual([]);
}

describe('legacy-spec on a modern-era connection', () => {
  let http: DualEraHttpServer;
  beforeAll(async () => {
    http = await startDualEraHttpServer();
  });
  afterAll(async () => {
    await http.close();
  });

  it('Streamable HTTP: same result and same Requests with and without it', async () => {
    await compare(async (extensions, waitFor) => {
      const connection = await connect({ url: http.url }, { waitFor, extensions, era: 'auto' });
      try {
        return { era: connection.era, result: await connection.callTool({ name: 'ask_url' }) };
      } finally {
        await connection.close();
      }
    });
  });

  it('stdio: same result and same Requests with and without it', async () => {
    await compare(async (extensions, waitFor) => {
      const connection = await openStdio('v2', fixtureServer('completionServerV2Stdio.ts'), {
        waitFor,
        extensions,
        era: 'auto',
      });
      try {
        const era =
          (connection.client as { getProtocolEra(): string | undefined }).getProtocolEra() ??
          'unknown';
        const result = await connection.callTool('open-url', {
          elicitationId: 'm-1',
          url: 'https://auth.example.com/m',
        });
        return { era, result };
      } finally {
        await connection.close();
      }
    });
  });

  it('contrast: on a legacy-era connection the same recording shows the completion subscription', async () => {
    const legacy = createLegacySpec();
    const subscribed: string[] = [];
    const connection = await openStdio('v2', fixtureServer('completionServerV2Stdio.ts'), {
      waitFor: async (request) => accept(request),
      extensions: [recordingSubscriptions(legacy.extension, subscribed)],
      era: 'legacy',
    });
    try {
      expect((connection.client as { getProtocolEra(): string | undefined }).getProtocolEra()).toBe(
        'legacy',
      );
      // No URL elicitation yet: nothing subscribed.
      expect(subscribed).toEqual([]);
      await connection.callTool('open-url', {
        elicitationId: 'l-1',
        url: 'https://auth.example.com/l',
      });
      expect(subscribed).toEqual(['notifications/elicitation/complete']);
      expect(legacy.get('l-1')?.state).toBe('consented');
    } finally {
      await connection.close();
    }
  });
});
