/**
 * notifications/elicitation/complete over legacy-era Streamable HTTP: a REAL v2
 * `@modelcontextprotocol/server` (createElicitationCompletionNotifier) and a REAL v1
 * `@modelcontextprotocol/sdk` server, session-ful on 127.0.0.1:0, each answered by a v2 and a v1
 * client. A completion travels two ways over HTTP: on the response stream of the request that sent
 * it (the `complete` tool), and out of any request on the client's standalone GET stream (the way a
 * server reports that the person finished in the browser).
 */
import { accept, createInbox, type Request } from '@waitfor/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startCompletionHttpServer,
  type CompletionHttpServer,
  type CompletionSession,
  type ServerSdk,
} from './__fixtures__/completionHttpServer';
import { openHttp, type ClientKind, type OpenConnection } from './__fixtures__/openConnection';
import {
  createLegacySpec,
  type CompletionEvent,
  type LegacySpec,
  type LegacySpecOptions,
} from './index';

const rows: Array<{ label: string; sdk: ServerSdk; server: string; client: ClientKind }> = [
  { label: 'v2 server, v2 client', sdk: 'v2', server: 'completion-v2', client: 'v2' },
  { label: 'v2 server, v1 client', sdk: 'v2', server: 'completion-v2', client: 'v1' },
  { label: 'v1 server, v2 client', sdk: 'v1', server: 'completion-v1', client: 'v2' },
  { label: 'v1 server, v1 client', sdk: 'v1', server: 'completion-v1', client: 'v1' },
];

const textOf = (result: Record<string, unknown>) =>
  (result['content'] as Array<{ text?: string }>).map((block) => block.text ?? '').join('');

const completions = (legacy: LegacySpec) => {
  const events: CompletionEvent[] = [];
  legacy.onComplete((event) => events.push(event));
  return events;
};

/** The first Request the inbox lists once it lists `count`. */
const nthListed = async (inbox: ReturnType<typeof createInbox>, count: number) => {
  await expect.poll(() => inbox.getSnapshot().length).toBe(count);
  return inbox.getSnapshot()[count - 1] as Request;
};

describe.each(rows)('completion over Streamable HTTP with a $label', ({ sdk, server, client }) => {
  let http: CompletionHttpServer;
  let open: OpenConnection | undefined;
  beforeAll(async () => {
    http = await startCompletionHttpServer(sdk);
  });
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });
  afterAll(async () => {
    await http.close();
  });

  const start = async (
    waitFor: Parameters<typeof openHttp>[2]['waitFor'],
    options: LegacySpecOptions = {},
  ) => {
    const legacy = createLegacySpec(options);
    const sessionsBefore = http.sessions.length;
    open = await openHttp(client, http.url, { waitFor, extensions: [legacy.extension] });
    expect(open.attachment.host.era).toBe('legacy');
    expect(http.sessions).toHaveLength(sessionsBefore + 1);
    const session = http.sessions.at(-1) as CompletionSession;
    return { legacy, connection: open, session };
  };

  it('on the response stream of the notifying request: the consented Request completes; a duplicate and an unknown id change nothing', async () => {
    const seen: Request[] = [];
    const { legacy, connection } = await start(async (request) => {
      seen.push(request);
      return accept(request);
    });
    const events = completions(legacy);

    const opened = await connection.callTool('open-url', {
      elicitationId: 'h-1',
      url: 'https://auth.example.com/h1',
    });
    expect(textOf(opened)).toBe('action:accept');
    const [asked] = seen as [Request];
    expect(asked).toMatchObject({
      kind: 'authorization',
      data: { elicitationId: 'h-1', origin: { server, era: 'legacy' } },
    });
    expect(legacy.get('h-1')?.state).toBe('consented');

    // The notification precedes the tool's result on the same stream: handled once the call returns.
    await connection.callTool('complete', { elicitationId: 'h-1' });
    expect(legacy.get('h-1')).toMatchObject({ state: 'completed', request: asked });
    expect(events).toEqual([{ elicitationId: 'h-1', request: asked, server, wasOpen: false }]);

    await connection.callTool('open-url', {
      elicitationId: 'h-2',
      url: 'https://auth.example.com/h2',
    });
    const before = legacy.getSnapshot();
    await connection.callTool('complete', { elicitationId: 'h-1' });
    await connection.callTool('complete', { elicitationId: 'never-asked' });
    expect(legacy.getSnapshot()).toBe(before);
    expect(legacy.get('h-2')?.state).toBe('consented');
    expect(events).toHaveLength(1);

    await connection.callTool('complete', { elicitationId: 'h-2' });
    expect(events.map((event) => event.elicitationId)).toEqual(['h-1', 'h-2']);
    expect(legacy.get('h-2')?.state).toBe('completed');
  });

  it('out of any request, on the standalone GET stream: an open Request settles in the inbox, a consented one completes; a duplicate and an unknown id change nothing', async () => {
    const inbox = createInbox();
    const { legacy, connection, session } = await start(inbox.waitFor, { inbox });
    const events = completions(legacy);
    // Before the client's GET stream is up, the transport would drop an out-of-request message.
    await expect.poll(() => session.standaloneStreamOpen()).toBe(true);

    // The person finishes in the browser before answering in the UI: the open Request settles.
    const first = connection.callTool('open-url', {
      elicitationId: 'i-1',
      url: 'https://auth.example.com/i1',
    });
    const open1 = await nthListed(inbox, 1);
    expect(legacy.get('i-1')?.state).toBe('open');
    await session.completeOutOfRequest('i-1');
    expect(textOf(await first)).toBe('action:accept');
    expect(inbox.getSnapshot()).toEqual([]);
    expect(events).toEqual([{ elicitationId: 'i-1', request: open1, server, wasOpen: true }]);

    // A consented one waits for its completion; the duplicate and the unknown id before it are ignored.
    const second = connection.callTool('open-url', {
      elicitationId: 'i-2',
      url: 'https://auth.example.com/i2',
    });
    const open2 = await nthListed(inbox, 1);
    inbox.answer(accept(open2));
    expect(textOf(await second)).toBe('action:accept');
    expect(legacy.get('i-2')?.state).toBe('consented');

    const changes: Array<ReadonlyArray<{ elicitationId: string; state: string }>> = [];
    legacy.subscribe(() => changes.push(legacy.getSnapshot()));
    const completion = legacy.waitForCompletion('i-2', { timeoutMs: Infinity });
    await session.notifyOutOfRequest('i-1');
    await session.notifyOutOfRequest('never-asked');
    // Same stream, same order: once i-2's completion is handled, the two before it were too.
    await session.completeOutOfRequest('i-2');
    await expect(completion).resolves.toMatchObject({ state: 'completed', request: open2 });

    expect(
      changes.map((snapshot) => snapshot.map((entry) => [entry.elicitationId, entry.state])),
    ).toEqual([
      [
        ['i-1', 'completed'],
        ['i-2', 'completed'],
      ],
    ]);
    expect(events.map((event) => [event.elicitationId, event.wasOpen])).toEqual([
      ['i-1', true],
      ['i-2', false],
    ]);
  });

  it('-32042: the retry waits for the completions sent out of any request, then succeeds', async () => {
    const order: string[] = [];
    // This test's session: the newest one (questions are only asked once it exists).
    const current = () => http.sessions.at(-1) as CompletionSession;
    const { legacy, connection, session } = await start(
      async (request) => {
        const elicitationId = String(request.data?.['elicitationId']);
        order.push(`ask:${elicitationId}`);
        // The person finishes in the browser after consenting; the server then notifies.
        setTimeout(() => void current().completeOutOfRequest(elicitationId), 20);
        return accept(request);
      },
      // No time bound: only the completions can let the retry go.
      { completionTimeoutMs: Infinity },
    );
    expect(current()).toBe(session);
    legacy.onComplete((event) => order.push(`complete:${event.elicitationId}`));
    await expect.poll(() => session.standaloneStreamOpen()).toBe(true);

    const result = await connection.callTool('requires-url', {
      elicitationIds: ['j-1', 'j-2'],
      url: 'https://auth.example.com/j',
    });
    // done:2 — the first call failed with -32042, the single retry found both completed.
    expect(textOf(result)).toBe('done:2');
    expect(order.slice(0, 2).sort()).toEqual(['ask:j-1', 'ask:j-2']);
    expect(order.slice(2).sort()).toEqual(['complete:j-1', 'complete:j-2']);
    expect(session.state.requiresUrlCalls.get('j-1 j-2')).toBe(2);
  });
});
