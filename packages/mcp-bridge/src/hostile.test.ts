/**
 * The bridge (v2 client, through `connect` and through `attachWaitFor`) against the hostile server
 * over HTTP, both eras
 * (src/__fixtures__/hostile*): every case ends in a typed BridgeError or a protocol-correct
 * refusal — no hang, no unhandled rejection, no answer sent twice (counted on the server side).
 */
import type { Answer, WaitFor } from '@waitfor/core';
import { accept, boundWaitFor, createInbox } from '@waitfor/core';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { HostileHttpServer } from './__fixtures__/hostileHttp';
import { startHostileHttpServer } from './__fixtures__/hostileHttp';
import {
  confirmYes,
  failOnUnhandledRejections,
  recordingWaitFor,
  rejection,
  resultText,
  withDeadline,
} from './__fixtures__/hostileHelpers';
import { openClient, type BridgePath } from './__fixtures__/clients';
import type { Bridge, BridgeErrorCode, Connection } from './index';
import { connect } from './index';

failOnUnhandledRejections();

/** What these tests use of a connection, whichever path made it. */
type Connected = Pick<Connection, 'callTool' | 'era' | 'close'>;

const eraPaths = (['legacy', 'modern'] as const).flatMap((era) =>
  (['connect', 'attachWaitFor'] as BridgePath[]).map((path) => [era, path] as const),
);

describe.each(eraPaths)('hostile server over HTTP, %s era, %s', (era, path) => {
  let server: HostileHttpServer;
  const connections: Connected[] = [];
  beforeEach(async () => {
    server = await startHostileHttpServer();
  });
  afterEach(async () => {
    await Promise.allSettled(connections.splice(0).map((connection) => connection.close()));
    await server.close();
  });

  /** A v2 client the test made, the bridge attached to it by the host. */
  const attached = async (waitFor: WaitFor, options: Record<string, unknown>) => {
    const kind = era === 'modern' ? 'v2-modern' : 'v2-legacy';
    const opened = await openClient(kind, 'http', { url: server.url }, { waitFor, ...options });
    return {
      callTool: ((params: object, callOptions?: object) =>
        opened.bridge.callTool(params as never, callOptions)) as Connection['callTool'],
      era: (opened.attachment as Bridge).era,
      // What connect's close does: detach (every open question ends), then close the client.
      close: () => (opened.attachment.detach(), opened.close()),
    };
  };
  const open = async (
    waitFor: WaitFor,
    options: Record<string, unknown> = {},
  ): Promise<Connected> => {
    const connection =
      path === 'connect'
        ? await connect({ url: server.url }, { waitFor, era, ...options })
        : await attached(waitFor, options);
    connections.push(connection);
    expect(connection.era).toBe(era);
    return connection;
  };
  const entries = (tool: string, kind?: string) =>
    server.log.entries.filter(
      (entry) => entry.tool === tool && (kind === undefined || entry.kind === kind),
    );
  /** How many answers reached the server for `tool`: legacy = elicitation results, modern = retries. */
  const answersSent = (tool: string) =>
    era === 'legacy'
      ? entries(tool, 'answer').length + entries(tool, 'refusal').length
      : entries(tool, 'call').filter((entry) => entry.inputResponses !== undefined).length;

  test('a well-formed question is answered exactly once', async () => {
    const person = recordingWaitFor(confirmYes);
    const connection = await open(person.waitFor);
    const result = await connection.callTool({ name: 'confirm', arguments: {} });
    expect(resultText(result)).toContain('"confirmed":true');
    expect(person.requests).toHaveLength(1);
    expect(answersSent('confirm')).toBe(1);
  });

  test('malformed elicitation params are refused without asking the person', async () => {
    const person = recordingWaitFor(confirmYes);
    const connection = await open(person.waitFor);
    if (era === 'legacy') {
      // The pushed request is answered with JSON-RPC -32602 (invalid params); the tool reports it.
      const result = await connection.callTool({ name: 'malformed_params', arguments: {} });
      expect(resultText(result)).toBe('refused: -32602');
      expect(entries('malformed_params', 'refusal')).toHaveLength(1);
    } else {
      const error = await rejection(
        connection.callTool({ name: 'malformed_params', arguments: {} }),
      );
      expect(error.code).toBe<BridgeErrorCode>('invalid_params');
      expect(entries('malformed_params', 'call')).toHaveLength(1);
    }
    expect(person.requests).toEqual([]);
  });

  test('a schema that breaks the rules (nested object) is refused without asking the person', async () => {
    const person = recordingWaitFor(confirmYes);
    const connection = await open(person.waitFor);
    if (era === 'legacy') {
      const result = await connection.callTool({ name: 'bad_schema', arguments: {} });
      expect(resultText(result)).toBe('refused: -32602');
      expect(entries('bad_schema', 'refusal')).toHaveLength(1);
    } else {
      const error = await rejection(connection.callTool({ name: 'bad_schema', arguments: {} }));
      expect(error.code).toBe<BridgeErrorCode>('invalid_params');
      expect(entries('bad_schema', 'call')).toHaveLength(1);
    }
    expect(person.requests).toEqual([]);
  });

  test('a waitFor that throws ends the question without a second answer', async () => {
    const person = recordingWaitFor(() => Promise.reject(new Error('the UI crashed')));
    const connection = await open(person.waitFor);
    if (era === 'legacy') {
      // Legacy: the pushed elicitation/create is answered once, with cancel (nobody chose).
      const result = await connection.callTool({ name: 'confirm', arguments: {} });
      expect(entries('confirm', 'answer').map((entry) => entry.value)).toEqual([
        { action: 'cancel' },
      ]);
      expect(entries('confirm', 'refusal')).toEqual([]);
      expect(resultText(result)).toBe('{"action":"cancel"}');
    } else {
      const error = await rejection(connection.callTool({ name: 'confirm', arguments: {} }));
      expect(error.code).toBe<BridgeErrorCode>('wait_failed');
      expect(answersSent('confirm')).toBe(0);
    }
    expect(person.requests).toHaveLength(1);
  });

  test('a waitFor that never answers is ended by an abort, which reaches the waitFor', async () => {
    const person = recordingWaitFor(() => new Promise<Answer>(() => {}));
    const connection = await open(person.waitFor);
    const controller = new AbortController();
    const call = connection.callTool(
      { name: 'confirm', arguments: {} },
      { signal: controller.signal },
    );
    await expect.poll(() => person.requests.length).toBe(1);
    expect(person.signals).toHaveLength(1);
    expect(person.signals[0]!.aborted).toBe(false);
    controller.abort(new Error('the person walked away'));
    // The waitFor ignores its signal on purpose: the abort alone must end the call.
    const error = await rejection(withDeadline(call, 5_000));
    expect(error.code).toBe<BridgeErrorCode>('aborted');
    // Both eras: the open question's signal aborts, so an inbox drops the stale entry.
    expect(person.signals[0]!.aborted).toBe(true);
    if (era === 'legacy') {
      // The pushed elicitation/create is the server's own request (the v2 server sends no
      // notifications/cancelled for it): the bridge answers it cancel, exactly once.
      await expect
        .poll(() => entries('confirm', 'answer').map((entry) => entry.value))
        .toEqual([{ action: 'cancel' }]);
      expect(entries('confirm', 'refusal')).toEqual([]);
    } else {
      // Modern: nothing is pending on the server; no retry is sent.
      expect(answersSent('confirm')).toBe(0);
    }
    expect(person.requests).toHaveLength(1);
  });

  test('closing the connection while a question is open ends the call and the question', async () => {
    const inbox = createInbox();
    const connection = await open(inbox.waitFor);
    const call = connection.callTool({ name: 'confirm', arguments: {} });
    await expect.poll(() => inbox.getSnapshot().length).toBe(1);
    await connection.close();
    const error = await rejection(withDeadline(call, 5_000));
    // Legacy: the SDK fails the open request on close; modern: detaching aborts the bridge's loop.
    expect(error.code).toBe<BridgeErrorCode>(era === 'legacy' ? 'client_error' : 'aborted');
    // No stale entry: the inbox saw the question's signal abort.
    expect(inbox.getSnapshot()).toEqual([]);
    // Nothing but (at most) one cancel reaches the server.
    if (era === 'legacy') {
      const answers = entries('confirm', 'answer').map((entry) => entry.value);
      expect(answers.length).toBeLessThanOrEqual(1);
      expect(answers.filter((value) => JSON.stringify(value) !== '{"action":"cancel"}')).toEqual(
        [],
      );
    } else expect(answersSent('confirm')).toBe(0);
    expect(entries('confirm', 'refusal')).toEqual([]);
  });

  test('a waitFor that never answers, bounded by a timeout, answers cancel exactly once', async () => {
    const never = recordingWaitFor(() => new Promise<Answer>(() => {}));
    const bounded = boundWaitFor(never.waitFor, { timeoutMs: 200 });
    const connection = await open(bounded);
    const result = await connection.callTool({ name: 'confirm', arguments: {} });
    const expected = { action: 'cancel' };
    if (era === 'legacy')
      expect(entries('confirm', 'answer').map((entry) => entry.value)).toEqual([expected]);
    else
      expect(
        entries('confirm', 'call')
          .map((entry) => entry.inputResponses)
          .filter(Boolean),
      ).toEqual([{ confirm: expected }]);
    expect(resultText(result)).toContain('cancel');
    expect(answersSent('confirm')).toBe(1);
  });

  test('a person who answers twice (inbox) gets exactly one answer sent', async () => {
    const inbox = createInbox();
    const connection = await open(inbox.waitFor);
    const call = connection.callTool({ name: 'confirm', arguments: {} });
    await expect.poll(() => inbox.getSnapshot().length).toBe(1);
    const [request] = inbox.getSnapshot();
    inbox.answer(accept(request!, { confirmed: true }));
    inbox.answer(accept(request!, { confirmed: false }));
    const result = await call;
    expect(resultText(result)).toContain('"confirmed":true');
    expect(answersSent('confirm')).toBe(1);
  });

  test('an answer for another Request is not sent as this one', async () => {
    const person = recordingWaitFor((request) =>
      Promise.resolve(accept(`${request.id}-other`, { confirmed: true })),
    );
    const connection = await open(person.waitFor);
    const result = await connection.callTool({ name: 'confirm', arguments: {} });
    expect(resultText(result)).not.toContain('"confirmed":true');
    expect(answersSent('confirm')).toBe(1);
  });

  test('the server disconnecting mid-round ends the call with a typed error', async () => {
    const person = recordingWaitFor(
      (request) =>
        new Promise<Answer>((resolve) =>
          setTimeout(() => resolve(accept(request, { confirmed: true })), 400),
        ),
    );
    const connection = await open(person.waitFor);
    // A legacy SSE stream that drops may be resumed, so the client cannot tell a vanished server
    // from a slow one: the call's own time budget (paused while the question is open) bounds it.
    const error = await rejection(
      connection.callTool({ name: 'vanish', arguments: {} }, { timeout: 3_000 }),
    );
    // Modern: the retry finds nobody listening (a local fetch failure).
    expect(error.code).toBe<BridgeErrorCode>(era === 'legacy' ? 'timeout' : 'client_error');
    expect(person.requests).toHaveLength(1);
  });

  test('an unknown method pushed / asked is refused', async () => {
    const person = recordingWaitFor(confirmYes);
    const connection = await open(person.waitFor);
    if (era === 'legacy') {
      const result = await connection.callTool({ name: 'unknown_method', arguments: {} });
      expect(resultText(result)).toBe('refused: -32601');
    } else {
      // The v2 server refuses to emit it (see hostileRawServer.ts): its own -32603 arrives as a wire error.
      const error = await rejection(connection.callTool({ name: 'unknown_method', arguments: {} }));
      expect(error.code).toBe<BridgeErrorCode>('server_error');
    }
    expect(person.requests).toEqual([]);
  });

  if (era === 'modern') {
    test('an endless input_required loop stops at the round cap with the last result', async () => {
      const person = recordingWaitFor(confirmYes);
      const connection = await open(person.waitFor);
      const error = await rejection(
        connection.callTool({ name: 'endless', arguments: {} }, { maxRounds: 3 }),
      );
      expect(error.code).toBe<BridgeErrorCode>('rounds_exceeded');
      expect((error.lastResult as { resultType?: string }).resultType).toBe('input_required');
      // The first call plus three answered rounds; the fourth input_required is not asked.
      expect(entries('endless', 'call')).toHaveLength(4);
      expect(person.requests).toHaveLength(3);
    });

    test('a 1 MB requestState is echoed byte-exact', async () => {
      const person = recordingWaitFor(confirmYes);
      const connection = await open(person.waitFor);
      const result = await connection.callTool({ name: 'big_state', arguments: {} });
      expect(resultText(result)).toBe('state-ok');
      const [first, retry] = entries('big_state', 'call');
      expect(first?.requestState).toBeUndefined();
      expect(retry?.requestState).toBe(server.log.bigState);
      expect(server.log.bigState).toHaveLength(1024 * 1024);
    });
  }
});
