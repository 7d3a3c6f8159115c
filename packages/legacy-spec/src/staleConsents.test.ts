/**
 * A consented URL elicitation must not stay `consented` after the call that asked ended, against
 * REAL legacy-era servers over stdio (a v2 `@modelcontextprotocol/server` and a v1
 * `@modelcontextprotocol/sdk` server) with a v2 and a v1 client — the request path (a pushed
 * URL-mode elicitation/create) and the URLElicitationRequiredError (-32042) path.
 *
 * What must hold: a call aborted or failed after consent closes its consented entries at once with
 * reason `call_ended` (published in the snapshot; a late completion changes nothing); a call that
 * ended normally leaves them consented for `completionTimeoutMs` (the server may still send the
 * completion, and then they complete), after which they close with reason `call_ended`.
 */
import { accept, type Request, type WaitFor } from '@waitfor/core';
import { BridgeError } from '@waitfor/mcp-bridge';
import { describe, expect, it } from 'vitest';
import { fixtureServer, type ClientKind } from './__fixtures__/openConnection';
import { failureOf, legacySpecConnections, textOf } from './__fixtures__/legacySpecConnections';
import type { LegacySpec, LegacySpecOptions } from './index';

const rows: Array<{ label: string; file: string; client: ClientKind }> = [
  { label: 'v2 server, v2 client', file: 'completionServerV2Stdio.ts', client: 'v2' },
  { label: 'v2 server, v1 client', file: 'completionServerV2Stdio.ts', client: 'v1' },
  { label: 'v1 server, v2 client', file: 'completionServerV1Stdio.ts', client: 'v2' },
  { label: 'v1 server, v1 client', file: 'completionServerV1Stdio.ts', client: 'v1' },
];

/** Every state (with its reason) the snapshot published for `elicitationId`, without repeats. */
function statesOf(legacy: LegacySpec, elicitationId: string) {
  const seen: string[] = [];
  legacy.subscribe(() => {
    const entry = legacy.getSnapshot().find((item) => item.elicitationId === elicitationId);
    const state = entry && [entry.state, entry.reason].filter(Boolean).join(':');
    if (state && seen.at(-1) !== state) seen.push(state);
  });
  return seen;
}

/** A person who consents to everything and records what was asked. */
function consenting() {
  const asked: Request[] = [];
  const waitFor: WaitFor = async (request) => {
    asked.push(request);
    return accept(request);
  };
  return { asked, waitFor };
}

const connections = legacySpecConnections();

describe.each(rows)('consented URL elicitations after their call, $label', ({ file, client }) => {
  const start = (waitFor: WaitFor, options: LegacySpecOptions = {}) =>
    connections.start(client, fixtureServer(file), waitFor, options);

  it('request path, call aborted after consent: closed with call_ended at once; a retry leaves no stale consent', async () => {
    const person = consenting();
    const { legacy, connection } = await start(person.waitFor, { completionTimeoutMs: Infinity });
    const events: string[] = [];
    legacy.onComplete((event) => events.push(event.elicitationId));
    const link = async (elicitationId: string) => {
      const states = statesOf(legacy, elicitationId);
      const controller = new AbortController();
      const call = failureOf(
        connection.callTool(
          'link',
          { elicitationId, url: 'https://auth.example.com/link' },
          { signal: controller.signal },
        ),
      );
      // The person opened the page: the server holds the call until the sign-in completes.
      await expect.poll(() => legacy.get(elicitationId)?.state).toBe('consented');
      controller.abort(new Error('Cancel call'));
      const failure = await call;
      expect(BridgeError.isInstance(failure)).toBe(true);
      expect(failure).toMatchObject({ code: 'aborted' });
      return states;
    };

    const states = await link('l-1');
    expect(legacy.get('l-1')).toMatchObject({ state: 'closed', reason: 'call_ended' });
    expect(states).toEqual(['open', 'consented', 'closed:call_ended']);
    expect(await failureOf(legacy.waitForCompletion('l-1'))).toMatchObject({
      code: 'elicitation_closed',
    });
    // Retry, and cancel again: still nothing waits for the person.
    await link('l-2');
    expect(legacy.getSnapshot().filter((entry) => entry.state === 'consented')).toEqual([]);
    // A completion the server sends after all changes nothing.
    await connection.callTool('complete', { elicitationId: 'l-1' });
    await connection.callTool('complete', { elicitationId: 'l-2' });
    expect(legacy.getSnapshot().map((entry) => [entry.elicitationId, entry.state])).toEqual([
      ['l-1', 'closed'],
      ['l-2', 'closed'],
    ]);
    expect(events).toEqual([]);
    expect(person.asked).toHaveLength(2);
  });

  it('request path, call ended normally after consent: consented until completionTimeoutMs passes, then closed with call_ended', async () => {
    const person = consenting();
    const { legacy, connection } = await start(person.waitFor, { completionTimeoutMs: 200 });
    const states = statesOf(legacy, 'n-1');
    const result = await connection.callTool('open-url', {
      elicitationId: 'n-1',
      url: 'https://auth.example.com/n',
    });
    expect(textOf(result)).toBe('action:accept');
    await expect.poll(() => legacy.get('n-1')?.state).toBe('closed');
    expect(legacy.get('n-1')?.reason).toBe('call_ended');
    expect(states).toEqual(['open', 'consented', 'closed:call_ended']);
  });

  it('request path, call ended normally after consent: a completion within completionTimeoutMs still completes it', async () => {
    const person = consenting();
    const { legacy, connection } = await start(person.waitFor, { completionTimeoutMs: 60_000 });
    const states = statesOf(legacy, 'q-1');
    await connection.callTool('open-url', {
      elicitationId: 'q-1',
      url: 'https://auth.example.com/q',
    });
    await connection.callTool('complete', { elicitationId: 'q-1' });
    expect(legacy.get('q-1')?.state).toBe('completed');
    expect(states).toEqual(['open', 'consented', 'completed']);
  });

  it('-32042 path, call failed after consent (elicitation_loop): closed with call_ended at once', async () => {
    const person = consenting();
    const { legacy, connection } = await start(person.waitFor, { completionTimeoutMs: 100 });
    const states = statesOf(legacy, 'r-1');
    const failure = await failureOf(
      connection.callTool('requires-url', {
        elicitationIds: ['r-1'],
        url: 'https://auth.example.com/r',
      }),
    );
    expect(failure).toMatchObject({ code: 'elicitation_loop' });
    expect(legacy.get('r-1')).toMatchObject({ state: 'closed', reason: 'call_ended' });
    expect(states).toEqual(['open', 'consented', 'closed:call_ended']);
  });

  it('-32042 path, retry succeeded without the completion: consented until completionTimeoutMs passes, then closed with call_ended', async () => {
    const person = consenting();
    const { legacy, connection } = await start(person.waitFor, { completionTimeoutMs: 100 });
    const states = statesOf(legacy, 's-1');
    const result = await connection.callTool('requires-url', {
      elicitationIds: ['s-1'],
      url: 'https://auth.example.com/s',
      once: true,
    });
    expect(textOf(result)).toBe('done:2');
    await expect.poll(() => legacy.get('s-1')?.state).toBe('closed');
    expect(legacy.get('s-1')?.reason).toBe('call_ended');
    expect(states).toEqual(['open', 'consented', 'closed:call_ended']);
  });
});
