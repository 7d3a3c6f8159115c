/**
 * notifications/elicitation/complete and URLElicitationRequiredError (-32042) against REAL legacy-era
 * servers over stdio: a v2 `@modelcontextprotocol/server` (createElicitationCompletionNotifier) and a
 * v1 `@modelcontextprotocol/sdk` server, each with a v2 and a v1 client.
 */
import {
  accept,
  createInbox,
  decline,
  type Answer,
  type Request,
  type WaitFor,
} from '@waitfor/core';
import {
  legacySpecErrorOf,
  type CompletionEvent,
  type LegacySpec,
  type LegacySpecOptions,
} from './index';
import { describe, expect, it } from 'vitest';
import { fixtureServer, type ClientKind } from './__fixtures__/openConnection';
import { legacySpecConnections, textOf } from './__fixtures__/legacySpecConnections';

const rows: Array<{ label: string; file: string; server: string; client: ClientKind }> = [
  {
    label: 'v2 server, v2 client',
    file: 'completionServerV2Stdio.ts',
    server: 'completion-v2',
    client: 'v2',
  },
  {
    label: 'v2 server, v1 client',
    file: 'completionServerV2Stdio.ts',
    server: 'completion-v2',
    client: 'v1',
  },
  {
    label: 'v1 server, v2 client',
    file: 'completionServerV1Stdio.ts',
    server: 'completion-v1',
    client: 'v2',
  },
  {
    label: 'v1 server, v1 client',
    file: 'completionServerV1Stdio.ts',
    server: 'completion-v1',
    client: 'v1',
  },
];

const elicitationIdOf = (request: Request) => String(request.data?.['elicitationId']);

const connections = legacySpecConnections();

describe.each(rows)('legacy-spec with a $label', ({ file, server, client }) => {
  const start = async (waitFor: WaitFor, options: LegacySpecOptions = {}) => {
    return connections.start(client, fixtureServer(file), waitFor, options);
  };

  const completions = (legacy: LegacySpec) => {
    const events: CompletionEvent[] = [];
    legacy.onComplete((event) => events.push(event));
    return events;
  };

  it('keeps elicitationId, completes a consented Request on the notification, and ignores a duplicate and an unknown id', async () => {
    const seen: Request[] = [];
    const { legacy, connection } = await start(async (request) => {
      seen.push(request);
      return accept(request);
    });
    const events = completions(legacy);

    const result = await connection.callTool('open-url', {
      elicitationId: 'a-1',
      url: 'https://auth.example.com/a',
    });
    expect(textOf(result)).toBe('action:accept');
    expect(seen).toHaveLength(1);
    const [asked] = seen as [Request];
    expect(asked).toMatchObject({
      kind: 'authorization',
      url: 'https://auth.example.com/a',
      data: { elicitationId: 'a-1', origin: { server, era: 'legacy' } },
    });
    expect(asked.id).toMatch(/^elc-/);
    expect(legacy.get('a-1')?.state).toBe('consented');

    const completion = legacy.waitForCompletion('a-1', { timeoutMs: 20_000 });
    await connection.callTool('complete', { elicitationId: 'a-1' });
    await expect(completion).resolves.toMatchObject({
      state: 'completed',
      request: { id: asked.id },
    });
    expect(events).toEqual([{ elicitationId: 'a-1', request: asked, server, wasOpen: false }]);

    // A second consented elicitation stays untouched by a duplicate and an unknown id.
    await connection.callTool('open-url', {
      elicitationId: 'a-2',
      url: 'https://auth.example.com/b',
    });
    const before = legacy.getSnapshot();
    await connection.callTool('complete', { elicitationId: 'a-1' });
    await connection.callTool('complete', { elicitationId: 'never-asked' });
    // The server's messages arrive in order: once a-2's completion is seen, the two above were handled.
    const second = legacy.waitForCompletion('a-2', { timeoutMs: 20_000 });
    expect(legacy.getSnapshot()).toBe(before);
    await connection.callTool('complete', { elicitationId: 'a-2' });
    await second;
    expect(events.map((event) => event.elicitationId)).toEqual(['a-1', 'a-2']);
    expect(legacy.get('a-1')?.state).toBe('completed');
  });

  it('settles a Request still open in the inbox when its completion arrives first', async () => {
    const inbox = createInbox();
    const { legacy, connection } = await start(inbox.waitFor, { inbox });
    const events = completions(legacy);
    const asked = new Promise<Request>((resolve) => {
      const stop = inbox.subscribe(() => {
        const [request] = inbox.getSnapshot();
        if (request) {
          stop();
          resolve(request);
        }
      });
    });

    const call = connection.callTool('open-url', {
      elicitationId: 'b-1',
      url: 'https://auth.example.com/b',
    });
    const request = await asked;
    expect(request.data?.['elicitationId']).toBe('b-1');
    expect(legacy.get('b-1')?.state).toBe('open');
    await connection.callTool('complete', { elicitationId: 'b-1' });

    expect(textOf(await call)).toBe('action:accept');
    expect(inbox.getSnapshot()).toEqual([]);
    expect(events).toEqual([{ elicitationId: 'b-1', request, server, wasOpen: true }]);
    expect(legacy.get('b-1')?.state).toBe('completed');
  });

  it('answers -32042 by asking every listed elicitation, waits for the completions, then retries once', async () => {
    const order: string[] = [];
    const started = await start(
      async (request) => {
        order.push(`ask:${elicitationIdOf(request)}`);
        // The person finishes in the browser after consenting; the server then notifies.
        setTimeout(
          () =>
            void connections
              .current()
              ?.callTool('complete', { elicitationId: elicitationIdOf(request) }),
          50,
        );
        return accept(request);
      },
      { completionTimeoutMs: 20_000 },
    );
    const { connection } = started;
    started.legacy.onComplete((event) => order.push(`complete:${event.elicitationId}`));

    const result = await connection.callTool('requires-url', {
      elicitationIds: ['c-1', 'c-2'],
      url: 'https://auth.example.com/c',
    });
    // done:2 — the first call failed with -32042, the single retry found both completed.
    expect(textOf(result)).toBe('done:2');
    expect(order.slice(0, 2).sort()).toEqual(['ask:c-1', 'ask:c-2']);
    expect(order.slice(2).sort()).toEqual(['complete:c-1', 'complete:c-2']);
    const request = started.legacy.get('c-1')?.request;
    expect(request).toMatchObject({
      kind: 'authorization',
      url: 'https://auth.example.com/c?id=c-1',
      prompt: 'Authorize c-1',
      data: { elicitationId: 'c-1', origin: { server, era: 'legacy', tool: 'requires-url' } },
    });
  });

  it('ends a second -32042 naming the same elicitation in elicitation_loop, after one retry', async () => {
    const asked: Request[] = [];
    const { connection } = await start(
      async (request) => {
        asked.push(request);
        return accept(request);
      },
      { completionTimeoutMs: 100 },
    );
    const failure = await connection
      .callTool('requires-url', { elicitationIds: ['d-1'], url: 'https://auth.example.com/d' })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    const error = legacySpecErrorOf(failure);
    expect(error?.code).toBe('elicitation_loop');
    expect(error?.elicitationId).toBe('d-1');
    expect(asked).toHaveLength(1);
    // The server saw exactly two calls: the next one with these ids is its third.
    await connection.callTool('complete', { elicitationId: 'd-1' });
    expect(
      textOf(
        await connection.callTool('requires-url', {
          elicitationIds: ['d-1'],
          url: 'https://auth.example.com/d',
        }),
      ),
    ).toBe('done:3');
  });

  it('ends a declined elicitation in elicitation_refused carrying the Answers; the other question is cancelled', async () => {
    const { legacy, connection } = await start(
      (request, context) =>
        elicitationIdOf(request) === 'e-1'
          ? Promise.resolve(decline(request))
          : new Promise<Answer>((resolve) => {
              // Never answered by a person: only the shared abort ends it.
              context?.signal?.addEventListener(
                'abort',
                () => resolve({ id: request.id, ok: false, reason: 'cancelled' }),
                { once: true },
              );
            }),
      { completionTimeoutMs: 20_000 },
    );
    const failure = await connection
      .callTool('requires-url', {
        elicitationIds: ['e-1', 'e-2'],
        url: 'https://auth.example.com/e',
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    const error = legacySpecErrorOf(failure);
    expect(error?.code).toBe('elicitation_refused');
    expect(error?.answers?.map((answer) => [answer.ok, answer.reason])).toEqual([
      [false, 'declined'],
      [false, 'cancelled'],
    ]);
    // Each entry says why it closed.
    expect(['e-1', 'e-2'].map((id) => legacy.get(id)?.reason)).toEqual(['declined', 'cancelled']);
  });
});
