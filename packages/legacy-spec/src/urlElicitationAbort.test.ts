/**
 * Aborting a call in the URLElicitationRequiredError (-32042) path, against REAL legacy-era servers
 * over stdio (a v2 `@modelcontextprotocol/server` and a v1 `@modelcontextprotocol/sdk` server) with a
 * v2 and a v1 client. The person answers through an inbox, as a UI would.
 *
 * What must hold: the abort reaches the open authorization question (the inbox drops it), the call
 * rejects with the bridge's own abort error (`BridgeError` `aborted`, as for an abort anywhere else
 * in a bridge call), and no retry reaches the server. Detaching the bridge mid-call does the same. The servers count the calls of `requires-url`
 * per list of ids and answer `done:<n>` once every id completed, so the count shows whether a retry
 * was sent.
 */
import { createInbox, type AbortSignalLike, type Request, type WaitFor } from '@waitfor/core';
import * as v1Types from '@modelcontextprotocol/sdk/types.js';
import { attachWaitFor, BridgeError, type CallOptions } from '@waitfor/mcp-bridge';
import { describe, expect, it } from 'vitest';
import { fixtureServer, type ClientKind, type OpenConnection } from './__fixtures__/openConnection';
import { failureOf, legacySpecConnections, textOf } from './__fixtures__/legacySpecConnections';

const rows: Array<{ label: string; file: string; client: ClientKind }> = [
  { label: 'v2 server, v2 client', file: 'completionServerV2Stdio.ts', client: 'v2' },
  { label: 'v2 server, v1 client', file: 'completionServerV2Stdio.ts', client: 'v1' },
  { label: 'v1 server, v2 client', file: 'completionServerV1Stdio.ts', client: 'v2' },
  { label: 'v1 server, v1 client', file: 'completionServerV1Stdio.ts', client: 'v1' },
];

/** An inbox whose waitFor also records the signal each Request was handed. */
function recordingInbox() {
  const inbox = createInbox();
  const signals = new Map<string, AbortSignalLike>();
  const waitFor: WaitFor = (request, context) => {
    if (context?.signal !== undefined) signals.set(request.id, context.signal);
    return inbox.waitFor(request, context);
  };
  return { inbox, waitFor, signals };
}

/** The first Request the inbox lists, once it lists one. */
const firstListed = async (inbox: ReturnType<typeof createInbox>) => {
  await expect.poll(() => inbox.getSnapshot().length).toBe(1);
  return inbox.getSnapshot()[0] as Request;
};

const connections = legacySpecConnections();

describe.each(rows)('aborting a -32042 call with a $label', ({ file, client }) => {
  const start = async (
    waitFor: WaitFor,
    inbox?: { answer: ReturnType<typeof createInbox>['answer'] },
  ) => {
    // No time bound on the completion wait: only the abort can end it.
    return connections.start(client, fixtureServer(file), waitFor, {
      inbox,
      completionTimeoutMs: Infinity,
    });
  };

  /** Call `requires-url` for `ids`: -32042 until every id went through `complete`, then `done:<n>`. */
  const requiresUrl = (connection: OpenConnection, ids: string[], options?: CallOptions) =>
    connection.callTool(
      'requires-url',
      { elicitationIds: ids, url: 'https://auth.example.com/abort' },
      options,
    );

  /** Complete `ids` on the server, then call once more: `done:2` means the aborted call was never retried. */
  const callsSoFar = async (connection: OpenConnection, ids: string[], options?: CallOptions) => {
    for (const elicitationId of ids) {
      await connection.callTool('complete', { elicitationId }, options);
    }
    return textOf(await requiresUrl(connection, ids, options));
  };

  it('while the authorization questions are open: they are dropped, the call rejects aborted, no retry', async () => {
    const person = recordingInbox();
    const { legacy, connection } = await start(person.waitFor, person.inbox);
    const ids = ['f-1', 'f-2'];
    const controller = new AbortController();
    const call = failureOf(requiresUrl(connection, ids, { signal: controller.signal }));
    await expect.poll(() => person.inbox.getSnapshot().length).toBe(2);
    const asked = person.inbox.getSnapshot();
    expect(asked.map((request) => [request.kind, request.data?.['elicitationId']])).toEqual([
      ['authorization', 'f-1'],
      ['authorization', 'f-2'],
    ]);

    const reason = new Error('changed my mind');
    controller.abort(reason);
    const failure = await call;

    expect(BridgeError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'aborted', cause: reason });
    // The questions' own signals aborted, so the inbox dropped them: no stale dialog.
    expect(asked.map((request: Request) => person.signals.get(request.id)?.aborted)).toEqual([
      true,
      true,
    ]);
    expect(person.inbox.getSnapshot()).toEqual([]);
    expect(ids.map((id) => legacy.get(id)?.state)).toEqual(['closed', 'closed']);
    expect(ids.map((id) => legacy.get(id)?.reason)).toEqual(['cancelled', 'cancelled']);
    expect(await callsSoFar(connection, ids)).toBe('done:2');
  });

  it('while waiting for completion after consent: the wait ends on the abort, the call rejects aborted, no retry', async () => {
    const asked: Request[] = [];
    const { legacy, connection } = await start(async (request) => {
      asked.push(request);
      return { id: request.id, ok: true };
    });
    const ids = ['g-1'];
    const controller = new AbortController();
    const call = failureOf(requiresUrl(connection, ids, { signal: controller.signal }));
    // Consented: the person is in the browser and the server has not sent the completion.
    await expect.poll(() => legacy.get('g-1')?.state).toBe('consented');

    const reason = new Error('gave up');
    controller.abort(reason);
    const failure = await call;

    expect(BridgeError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'aborted', cause: reason });
    expect(asked).toHaveLength(1);
    // Nothing waits for the person any more: the consent closed with the call, and says why.
    expect(legacy.get('g-1')).toMatchObject({ state: 'closed', reason: 'call_ended' });
    expect(await callsSoFar(connection, ids)).toBe('done:2');
    // The completion the server sent on the way changed nothing.
    expect(legacy.get('g-1')).toMatchObject({ state: 'closed', reason: 'call_ended' });
  });

  it('detaching the bridge while the authorization question is open: it is dropped, the call rejects aborted, no retry', async () => {
    const person = recordingInbox();
    const { legacy, connection } = await start(person.waitFor, person.inbox);
    const ids = ['k-1'];
    const call = failureOf(requiresUrl(connection, ids));
    const asked = await firstListed(person.inbox);

    connection.attachment.detach();
    const failure = await call;

    expect(BridgeError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: 'aborted',
      cause: 'The connection closed or the bridge was detached',
    });
    expect(person.signals.get(asked.id)?.aborted).toBe(true);
    expect(person.inbox.getSnapshot()).toEqual([]);
    // The detached connection's elicitations are closed and no longer tied to it.
    expect(legacy.get('k-1')).toMatchObject({ state: 'closed', reason: 'connection_closed' });
    // Without the attachment a legacy call has no handler for pushed questions: refused up front.
    const refused = await failureOf(
      connection.callTool('complete', { elicitationId: 'k-1' }, { waitFor: person.waitFor }),
    );
    expect(refused).toMatchObject({ code: 'invalid_options' });
    // Attached again, the client still works through its new bridge: the aborted call was never
    // retried.
    const again = attachWaitFor(connection.client, { waitFor: person.waitFor, v1Schemas: v1Types });
    await again.ready;
    const reattached: OpenConnection = {
      ...connection,
      callTool: (name, args, options) => again.callTool({ name, arguments: args }, options),
    };
    expect(await callsSoFar(reattached, ids)).toBe('done:2');
    again.detach();
  });
});
