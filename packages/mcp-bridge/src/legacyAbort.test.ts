/**
 * Legacy era: a pushed question ends with the bridge call it belongs to. The person answers through
 * an inbox (as a UI would), so a question left waiting would stay listed — a stale dialog. Runs
 * against the real hostile server over Streamable HTTP with v2 (2025 handshake) and v1 clients,
 * through `attachWaitFor` and `connect`; answers are counted on the server side.
 */
import type { AbortSignalLike, Request, WaitFor } from '@waitfor/core';
import { accept, createInbox } from '@waitfor/core';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bridgePaths, openClient, type OpenClient } from './__fixtures__/clients';
import type { HostileHttpServer } from './__fixtures__/hostileHttp';
import { startHostileHttpServer } from './__fixtures__/hostileHttp';
import {
  failOnUnhandledRejections,
  rejection,
  resultText,
  withDeadline,
} from './__fixtures__/hostileHelpers';
import type { BridgeErrorCode } from './index';

failOnUnhandledRejections();

/** An inbox whose waitFor also records the signal each Request was handed. */
function recordingInbox() {
  const inbox = createInbox();
  const signals = new Map<string, AbortSignalLike>();
  const waitFor: WaitFor = (request, context) => {
    if (context?.signal !== undefined) signals.set(request.id, context.signal);
    return inbox.waitFor(request, context);
  };
  const signalOf = (request: Request | undefined): AbortSignalLike => {
    const signal = request === undefined ? undefined : signals.get(request.id);
    if (signal === undefined) throw new Error(`no signal recorded for ${request?.id}`);
    // A real AbortSignal, which a host may hand to fetch or AbortSignal.any (the bridge's own
    // bookkeeping signal is not one; the host's is made from it when the host looks).
    expect(signal).toBeInstanceOf(AbortSignal);
    return signal;
  };
  return { inbox, waitFor, signalOf };
}

const legacyPaths = bridgePaths.filter(([, , era]) => era === 'legacy');

describe.each(legacyPaths)('%s, %s client, legacy hostile server', (path, kind) => {
  let server: HostileHttpServer;
  const clients: OpenClient[] = [];
  beforeEach(async () => {
    server = await startHostileHttpServer();
  });
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((client) => client.close()));
    await server.close();
  });

  const open = async (waitFor: WaitFor) => {
    const opened = await openClient(kind, 'http', { url: server.url }, { waitFor }, path);
    clients.push(opened);
    expect(opened.attachment.host.era).toBe('legacy');
    return opened;
  };
  /** What the server received for pushed questions of `tool`, in order. */
  const replies = (tool: string) =>
    server.log.entries
      .filter((entry) => entry.tool === tool && entry.kind !== 'call')
      .map((entry) => (entry.kind === 'answer' ? entry.value : { refusal: entry.value }));

  test('two parallel calls: aborting the first cancels only its own question', async () => {
    const person = recordingInbox();
    const { bridge } = await open(person.waitFor);
    const first = new AbortController();
    const firstCall = bridge.callTool({ name: 'confirm', arguments: {} }, { signal: first.signal });
    await expect.poll(() => person.inbox.getSnapshot().length).toBe(1);
    const secondCall = bridge.callTool({ name: 'confirm', arguments: {} });
    await expect.poll(() => person.inbox.getSnapshot().length).toBe(2);
    const [firstQuestion, secondQuestion] = person.inbox.getSnapshot();
    // Alone in flight, the first call owns its question; the second arrived with two in flight.
    expect(firstQuestion?.data?.origin).toMatchObject({ tool: 'confirm' });
    expect(secondQuestion?.data?.origin).not.toHaveProperty('tool');

    first.abort(new Error('changed my mind'));
    expect((await rejection(withDeadline(firstCall, 5_000))).code).toBe<BridgeErrorCode>('aborted');
    expect(person.signalOf(firstQuestion).aborted).toBe(true);
    expect(person.signalOf(secondQuestion).aborted).toBe(false);
    expect(person.inbox.getSnapshot()).toEqual([secondQuestion]);
    await expect.poll(() => replies('confirm')).toEqual([{ action: 'cancel' }]);

    // The other call's question is still served, and answered exactly once.
    person.inbox.answer(accept(secondQuestion!, { confirmed: true }));
    expect(resultText(await secondCall)).toContain('"confirmed":true');
    expect(replies('confirm')).toEqual([
      { action: 'cancel' },
      { action: 'accept', content: { confirmed: true } },
    ]);
  });

  test('a question that arrived with two calls in flight ends only when both have ended', async () => {
    const person = recordingInbox();
    const { bridge } = await open(person.waitFor);
    const firstCall = bridge.callTool({ name: 'confirm', arguments: {} });
    await expect.poll(() => person.inbox.getSnapshot().length).toBe(1);
    const second = new AbortController();
    const secondCall = bridge.callTool(
      { name: 'confirm', arguments: {} },
      { signal: second.signal },
    );
    await expect.poll(() => person.inbox.getSnapshot().length).toBe(2);
    const [firstQuestion, secondQuestion] = person.inbox.getSnapshot();

    // The wire does not say which call the second question serves: it may be the first call's,
    // which is still running, so aborting the second call must not cancel it yet.
    second.abort(new Error('changed my mind'));
    expect((await rejection(withDeadline(secondCall, 5_000))).code).toBe<BridgeErrorCode>(
      'aborted',
    );
    expect(person.signalOf(secondQuestion).aborted).toBe(false);
    expect(person.inbox.getSnapshot()).toHaveLength(2);

    // Once the first call has ended too, no call is left that could use the answer.
    person.inbox.answer(accept(firstQuestion!, { confirmed: true }));
    expect(resultText(await firstCall)).toContain('"confirmed":true');
    await expect.poll(() => person.signalOf(secondQuestion).aborted).toBe(true);
    expect(person.inbox.getSnapshot()).toEqual([]);
    await expect
      .poll(() => replies('confirm'))
      .toEqual([{ action: 'accept', content: { confirmed: true } }, { action: 'cancel' }]);
  });

  test('a call that completes while its question is open cancels the question', async () => {
    const person = recordingInbox();
    const { bridge } = await open(person.waitFor);
    const result = await bridge.callTool({ name: 'ask_and_return', arguments: {} });
    expect(resultText(result)).toBe('returned before the answer');
    await expect.poll(() => replies('ask_and_return')).toEqual([{ action: 'cancel' }]);
    expect(person.inbox.getSnapshot()).toEqual([]);
  });

  test('detaching the bridge cancels the open question, once', async () => {
    const person = recordingInbox();
    const { attachment, bridge } = await open(person.waitFor);
    const call = bridge.callTool({ name: 'confirm', arguments: {} });
    await expect.poll(() => person.inbox.getSnapshot().length).toBe(1);
    const [question] = person.inbox.getSnapshot();
    attachment.detach();
    expect(person.signalOf(question).aborted).toBe(true);
    expect(person.inbox.getSnapshot()).toEqual([]);
    // The server gets cancel and finishes the tool with it.
    expect(resultText(await call)).toBe('{"action":"cancel"}');
    expect(replies('confirm')).toEqual([{ action: 'cancel' }]);
  });

  test('closing the client ends the open question', async () => {
    const person = recordingInbox();
    const { bridge, close } = await open(person.waitFor);
    const call = bridge.callTool({ name: 'confirm', arguments: {} });
    await expect.poll(() => person.inbox.getSnapshot().length).toBe(1);
    const [question] = person.inbox.getSnapshot();
    await close();
    expect((await rejection(withDeadline(call, 5_000))).code).toBe<BridgeErrorCode>('client_error');
    await expect.poll(() => person.signalOf(question).aborted).toBe(true);
    expect(person.inbox.getSnapshot()).toEqual([]);
  });
});
