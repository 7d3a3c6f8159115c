/**
 * legacy-spec asks through the bridge's extension seam, against REAL legacy-era servers over stdio
 * (a v2 `@modelcontextprotocol/server` and a v1 `@modelcontextprotocol/sdk` server) with a v2 and a
 * v1 client. The person answers through an inbox, as a UI would.
 *
 * What must hold: the `authorization` Requests of a URLElicitationRequiredError (-32042) are the
 * bridge's own questions — listed by `host.openRequests()` while open and reported by the host's
 * `request` and `answer` events, like a pushed question; and many -32042 calls waiting at once on
 * one connection put no abort listener each on one shared signal (Node prints
 * MaxListenersExceededWarning past 10), while detaching still ends every one of them.
 */
import { accept, createInbox, type Answer, type Request } from '@waitfor/core';
import { BridgeError } from '@waitfor/mcp-bridge';
import { describe, expect, it } from 'vitest';
import { fixtureServer, type ClientKind } from './__fixtures__/openConnection';
import { failureOf, legacySpecConnections, textOf } from './__fixtures__/legacySpecConnections';
import { recordProcessWarnings } from '../../mcp-bridge/src/__fixtures__/processWarnings';

const rows: Array<{ label: string; file: string; client: ClientKind }> = [
  { label: 'v2 server, v2 client', file: 'completionServerV2Stdio.ts', client: 'v2' },
  { label: 'v1 server, v1 client', file: 'completionServerV1Stdio.ts', client: 'v1' },
];

const warningsSoFar = recordProcessWarnings();
const listenerWarnings = async () =>
  (await warningsSoFar()).filter((warning) => warning.name === 'MaxListenersExceededWarning');

const connections = legacySpecConnections();

describe.each(rows)('legacy-spec through the bridge seam with a $label', ({ file, client }) => {
  it("a -32042 authorization Request is listed by openRequests() and fires the host's request and answer events", async () => {
    const inbox = createInbox();
    const { legacy, connection } = await connections.start(
      client,
      fixtureServer(file),
      inbox.waitFor,
      {
        inbox,
        completionTimeoutMs: 20_000,
      },
    );
    const host = connection.attachment.host;
    const requested: Request[] = [];
    const answered: Array<{ request: Request; answer: Answer }> = [];
    host.on('request', (request) => requested.push(request));
    host.on('answer', (event) => answered.push(event));

    const call = connection.callTool('requires-url', {
      elicitationIds: ['h-1'],
      url: 'https://auth.example.com/h',
    });
    // Awaited below; a failed expectation before that must not leave it unhandled.
    call.catch(() => undefined);
    await expect.poll(() => inbox.getSnapshot().length).toBe(1);
    const [asked] = inbox.getSnapshot() as [Request];
    expect(asked).toMatchObject({
      kind: 'authorization',
      data: { elicitationId: 'h-1', origin: { era: 'legacy', tool: 'requires-url' } },
    });
    expect(host.openRequests()).toEqual([asked]);
    expect(requested).toEqual([asked]);
    expect(legacy.get('h-1')?.request).toBe(asked);

    inbox.answer(accept(asked));
    await expect.poll(() => legacy.get('h-1')?.state).toBe('consented');
    expect(host.openRequests()).toEqual([]);
    expect(answered).toEqual([{ request: asked, answer: accept(asked) }]);

    // The person finishes in the browser; the server then notifies, and the retry succeeds.
    await connection.callTool('complete', { elicitationId: 'h-1' });
    expect(textOf(await call)).toBe('done:2');
    expect(legacy.get('h-1')?.state).toBe('completed');
    // One question, one request event and one answer event: nothing asked twice or around the bridge.
    expect(requested).toHaveLength(1);
    expect(answered).toHaveLength(1);
  });

  it('12 -32042 calls waiting at once add no abort listener each to one signal, and detaching ends them all', async () => {
    const count = 12;
    const inbox = createInbox();
    const { legacy, connection } = await connections.start(
      client,
      fixtureServer(file),
      inbox.waitFor,
      {
        inbox,
        completionTimeoutMs: Infinity,
      },
    );
    const ids = Array.from({ length: count }, (_, index) => `j-${index}`);
    const calls = ids.map((elicitationId) =>
      failureOf(
        connection.callTool('requires-url', {
          elicitationIds: [elicitationId],
          url: 'https://auth.example.com/j',
        }),
      ),
    );
    await expect.poll(() => inbox.getSnapshot().length).toBe(count);
    expect(await listenerWarnings()).toEqual([]);
    expect(connection.attachment.host.openRequests()).toHaveLength(count);

    connection.attachment.detach();
    const failures = await Promise.all(calls);
    expect(failures.every((failure) => BridgeError.isInstance(failure))).toBe(true);
    expect(failures.map((failure) => (failure as BridgeError).code)).toEqual(
      ids.map(() => 'aborted'),
    );
    expect(inbox.getSnapshot()).toEqual([]);
    expect(ids.map((id) => legacy.get(id)?.reason)).toEqual(ids.map(() => 'connection_closed'));
    expect(await listenerWarnings()).toEqual([]);
  });
});
