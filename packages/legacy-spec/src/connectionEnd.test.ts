/**
 * What legacy-spec does at the edges of a connection, against REAL legacy-era servers over stdio
 * (a v2 `@modelcontextprotocol/server` and a v1 `@modelcontextprotocol/sdk` server) with v2 and v1
 * clients: a -32042 on a client that cannot show URL questions passes through unchanged; the
 * connection closing (without detaching) closes its elicitations; a call's own waitFor asks the
 * -32042 questions of that call.
 */
import { accept, type Request, type WaitFor } from '@waitfor/core';
import { BridgeError } from '@waitfor/mcp-bridge';
import { describe, expect, it } from 'vitest';
import { fixtureServer, type ClientKind } from './__fixtures__/openConnection';
import { failureOf, legacySpecConnections, textOf } from './__fixtures__/legacySpecConnections';
import { type LegacySpecOptions } from './index';

const rows: Array<{ label: string; file: string; client: ClientKind }> = [
  { label: 'v2 server, v2 client', file: 'completionServerV2Stdio.ts', client: 'v2' },
  { label: 'v1 server, v1 client', file: 'completionServerV1Stdio.ts', client: 'v1' },
];

const connections = legacySpecConnections();

describe.each(rows)('legacy-spec at the connection edges with a $label', ({ file, client }) => {
  const start = async (
    waitFor: WaitFor,
    options: LegacySpecOptions & { modes?: Array<'form' | 'url'> } = {},
  ) => {
    const { modes, ...legacyOptions } = options;
    return connections.start(client, fixtureServer(file), waitFor, legacyOptions, modes);
  };

  it('passes a -32042 through unchanged when the client did not declare URL mode: nobody is asked', async () => {
    const asked: Request[] = [];
    const { legacy, connection } = await start(
      async (request) => {
        asked.push(request);
        return accept(request);
      },
      { modes: ['form'] },
    );
    const failure = await failureOf(
      connection.callTool('requires-url', {
        elicitationIds: ['m-1'],
        url: 'https://auth.example.com/m',
      }),
    );
    expect(BridgeError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: 'server_error',
      rpc: { code: -32042, data: { elicitations: [{ elicitationId: 'm-1' }] } },
    });
    expect(asked).toEqual([]);
    expect(legacy.getSnapshot()).toEqual([]);
  });

  it('the connection closing without a detach closes its elicitations and ends the -32042 wait', async () => {
    const { legacy, connection } = await start(async (request) => accept(request), {
      completionTimeoutMs: Infinity,
    });
    const call = failureOf(
      connection.callTool('requires-url', {
        elicitationIds: ['z-1'],
        url: 'https://auth.example.com/z',
      }),
    );
    // Consented: the person is in the browser; no completion has come.
    await expect.poll(() => legacy.get('z-1')?.state).toBe('consented');
    const waiting = failureOf(legacy.waitForCompletion('z-1', { timeoutMs: Infinity }));

    await (connection.client as { close(): Promise<void> }).close();

    expect(await waiting).toMatchObject({ code: 'elicitation_closed' });
    expect(legacy.get('z-1')).toMatchObject({ state: 'closed', reason: 'connection_closed' });
    const failure = await call;
    expect(BridgeError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'aborted' });
    // A wait begun after the close ends at once, too.
    expect(await failureOf(legacy.waitForCompletion('z-1'))).toMatchObject({
      code: 'elicitation_closed',
    });
  });

  it('refuses an elicitationId or url over its bound, pushed or listed in a -32042: nobody is asked, nothing is tracked', async () => {
    const asked: Request[] = [];
    const { legacy, connection } = await start(async (request) => {
      asked.push(request);
      return accept(request);
    });
    const longId = 'x'.repeat(257);
    const longUrl = `https://auth.example.com/${'u'.repeat(8192)}`;
    // A refused push fails the server's elicitation; the tool reports that as its own error.
    const pushed = await connection
      .callTool('open-url', { elicitationId: longId, url: 'https://auth.example.com/a' })
      .catch((error: unknown) => ({ isError: true, error }));
    expect(pushed['isError']).toBe(true);
    const pushedUrl = await connection
      .callTool('open-url', { elicitationId: 'ok-id', url: longUrl })
      .catch((error: unknown) => ({ isError: true, error }));
    expect(pushedUrl['isError']).toBe(true);
    for (const [elicitationIds, url] of [
      [[longId], 'https://auth.example.com/b'],
      [['ok-id'], longUrl],
    ] as const) {
      const listed = await failureOf(connection.callTool('requires-url', { elicitationIds, url }));
      expect(listed).toMatchObject({ code: 'invalid_error_data' });
    }
    expect(asked).toEqual([]);
    expect(legacy.getSnapshot()).toEqual([]);
  });

  it("asks a call's -32042 questions through the call's own waitFor", async () => {
    const attached: Request[] = [];
    const { connection } = await start(
      async (request) => {
        attached.push(request);
        return accept(request);
      },
      { completionTimeoutMs: 20_000 },
    );
    const own: Request[] = [];
    const sdkClient = connection.client as { callTool(params: object): Promise<unknown> };
    const result = await connection.callTool(
      'requires-url',
      { elicitationIds: ['w-1'], url: 'https://auth.example.com/w' },
      {
        waitFor: async (request) => {
          own.push(request);
          // The person finishes in the browser; the server then notifies. (A plain SDK call: the
          // bridge's own calls wait while a call with its own waitFor runs.)
          setTimeout(
            () =>
              void sdkClient.callTool({ name: 'complete', arguments: { elicitationId: 'w-1' } }),
            50,
          );
          return accept(request);
        },
      },
    );
    expect(textOf(result)).toBe('done:2');
    expect(attached).toEqual([]);
    expect(own.map((request) => request.data?.['elicitationId'])).toEqual(['w-1']);
  });
});
