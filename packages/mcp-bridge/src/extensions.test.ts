/** The extension point legacy-spec plugs into, exercised against the real server. */
import { accept, type Request } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import {
  openClient,
  withOpenClient,
  scriptedPerson,
  textOf,
  type ClientKind,
  useDualEraServer,
} from './__fixtures__/clients';
import { type BridgeExtension, type CallInfo, type ExtensionHost } from './index';

const server = useDualEraServer();

describe.each<[ClientKind, 'legacy' | 'modern']>([
  ['v2-legacy', 'legacy'],
  ['v1', 'legacy'],
  ['v2-modern', 'modern'],
])('extensions on a %s client', (kind, era) => {
  it('sets up once, rewrites Requests, wraps calls, sees events and open Requests, cleans up', async () => {
    const log: string[] = [];
    let host: ExtensionHost | undefined;
    const openDuringAsk: Request[][] = [];
    const extension: BridgeExtension = {
      name: 'probe',
      setup(given) {
        host = given;
        const offRequest = given.on('request', (request) => log.push(`request:${request.prompt}`));
        const offAnswer = given.on('answer', ({ answer }) =>
          log.push(`answer:${String(answer.ok)}`),
        );
        return () => {
          offRequest();
          offAnswer();
          log.push('cleanup');
        };
      },
      inboundRequest: (request, params) => ({
        ...request,
        data: { ...request.data, elicitationId: params['elicitationId'] ?? 'none' },
      }),
      aroundCall: async (call: CallInfo, next) => {
        log.push(`before:${call.method}:${String(call.params['name'])}:${call.era}`);
        const result = await next();
        log.push('after');
        return result;
      },
    };
    const person = scriptedPerson((request) => {
      openDuringAsk.push([...(host?.openRequests() ?? [])]);
      return accept(request);
    });
    const { attachment, bridge, close } = await openClient(
      kind,
      'http',
      { url: server.url },
      { waitFor: person.waitFor, extensions: [extension] },
    );
    try {
      expect(host?.era).toBe(era);
      expect(host?.serverName).toBe('dual-era-fixture');
      expect(textOf(await bridge.callTool({ name: 'ask_url' }))).toBe('accept');
      expect(log).toEqual([
        `before:tools/call:ask_url:${era}`,
        'request:Sign in to continue',
        'answer:true',
        'after',
      ]);
      expect(openDuringAsk[0]?.map((request) => request.id)).toEqual([person.seen[0]?.id]);
      expect(host?.openRequests()).toEqual([]);
      const elicitationId = person.seen[0]?.data?.['elicitationId'];
      // Rewritten in both eras, from the server's params: only a 2025 URL question has an elicitationId.
      if (era === 'legacy')
        expect(typeof elicitationId === 'string' && elicitationId !== 'none').toBe(true);
      else expect(elicitationId).toBe('none');
      attachment.detach();
      expect(log.at(-1)).toBe('cleanup');
    } finally {
      await close();
    }
  });
});

describe.each<ClientKind>(['v2-legacy', 'v1'])('notifications on a %s client', (kind) => {
  it('delivers server notifications to extension listeners by method name', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const person = scriptedPerson((request) => accept(request));
    await withOpenClient(
      kind,
      'http',
      { url: server.url },
      {
        waitFor: person.waitFor,
        extensions: [
          {
            name: 'listen',
            setup: (host) =>
              host.onNotification('notifications/elicitation/complete', (params) =>
                seen.push(params),
              ),
          },
        ],
      },
      async (client, bridge) => {
        expect(
          textOf(
            await bridge.callTool({
              name: 'notify_complete',
              arguments: { elicitationId: 'el-7' },
            }),
          ),
        ).toBe('sent');
        // The notification travels apart from the result: wait for it (bounded), not a fixed time.
        await expect.poll(() => seen).toEqual([{ elicitationId: 'el-7' }]);
      },
    );
  });
});
