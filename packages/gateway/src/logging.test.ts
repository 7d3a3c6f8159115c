/**
 * Log lines through the gateway, every host × upstream era: a host that asks for a level (a 2025
 * host with logging/setLevel, a 2026-07-28 host in its request's `_meta`) gets the upstream's lines
 * at that level and above, in order; one that asks for none gets none wherever the upstream's
 * revision says so (a 2026-07-28 server, or a 2026-07-28 host), and what a 2025 server decides to
 * send otherwise.
 */
import { LOG_LEVEL_META_KEY, type Client as V2Client } from '@modelcontextprotocol/client';
import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { openHost, type Host, type HostKind } from './__fixtures__/hosts';
import { LOGGED_LEVELS, startLoggingServer } from './__fixtures__/loggingServer';
import { createGateway, serveHttp, type Gateway, type HttpEndpoint } from './index';

/** The data of every log line `host` receives, in order. */
function linesOf(host: Host): string[] {
  const lines: string[] = [];
  if (host.kind === 'v1')
    (host.raw as V1Client).setNotificationHandler(LoggingMessageNotificationSchema, (message) => {
      lines.push(String(message.params.data));
    });
  else
    (host.raw as V2Client).setNotificationHandler(
      'notifications/message',
      (message: { params: { data: unknown } }) => void lines.push(String(message.params.data)),
    );
  return lines;
}

/** Call `log_levels` as a host of its era asks for `level` (undefined: it asks for none). */
async function callAt(host: Host, level: 'warning' | undefined): Promise<unknown> {
  if (host.kind === 'v1') {
    if (level !== undefined) await (host.raw as V1Client).setLoggingLevel(level);
    return host.callTool('log_levels');
  }
  const meta = level === undefined ? {} : { _meta: { [LOG_LEVEL_META_KEY]: level } };
  return (host.raw as V2Client).callTool({ name: 'log_levels', arguments: {}, ...meta });
}

const kinds: HostKind[] = ['v1', 'v2-modern'];
const cancels = async () => ({ action: 'cancel' });

describe.each(['legacy', 'modern'] as const)('upstream %s', (era) => {
  let upstream: HttpEndpoint;
  let gateway: Gateway;
  let endpoint: HttpEndpoint;
  beforeAll(async () => {
    upstream = await startLoggingServer();
    gateway = await createGateway({ upstream: { url: upstream.url }, era, log: () => undefined });
    endpoint = await serveHttp(gateway);
  });
  afterAll(async () => {
    await endpoint.close();
    await gateway.close();
    await upstream.close();
  });

  test.each(kinds)(
    'host %s asks for warning: it gets the warning and error lines',
    async (kind) => {
      const host = await openHost(kind, { url: endpoint.url }, cancels);
      try {
        const lines = linesOf(host);
        expect(JSON.stringify(await callAt(host, 'warning'))).toContain('logged');
        // A 2025 server's lines reach a 2025 host on its session, maybe after the result: waited
        // for, and a less severe line would have come first (one stream, in order).
        await vi.waitFor(() => expect(lines).toEqual(['warning line', 'error line']), {
          timeout: 15_000,
        });
      } finally {
        await host.close();
      }
    },
  );

  test.each(kinds)('host %s asks for no level', async (kind) => {
    const host = await openHost(kind, { url: endpoint.url }, cancels);
    try {
      const lines = linesOf(host);
      await callAt(host, undefined);
      if (kind === 'v1' && era === 'legacy') {
        // The 2025 rule: a server decides what a host that set no level gets (this one: all).
        const all = LOGGED_LEVELS.map((level) => `${level} line`);
        await vi.waitFor(() => expect(lines).toEqual(all), { timeout: 15_000 });
      } else {
        // The 2026-07-28 rule, on the side that speaks it: no level, no lines. Lines of a call go
        // inside the call, before its result, so none can come later.
        expect(lines).toEqual([]);
      }
    } finally {
      await host.close();
    }
  });
});
