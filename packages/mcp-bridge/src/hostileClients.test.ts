/**
 * Hostile messages the v2 SDK server refuses to emit (a raw node:http 2026-07-28 server), and the
 * legacy hostile server answered through a v1 `@modelcontextprotocol/sdk` client with attachWaitFor.
 */
import type { Answer, WaitFor } from '@waitfor/core';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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
import type { HostileRawServer } from './__fixtures__/hostileRawServer';
import { startHostileRawServer } from './__fixtures__/hostileRawServer';
import type { Bridge, BridgeErrorCode, Connection } from './index';
import { attachWaitFor, connect, elicitationCapabilities } from './index';

failOnUnhandledRejections();

describe('hostile raw 2026-07-28 server (messages the SDK server refuses to emit)', () => {
  let server: HostileRawServer;
  let connection: Connection;
  beforeEach(async () => {
    server = await startHostileRawServer();
  });
  afterEach(async () => {
    await connection?.close();
    await server.close();
  });

  test('an input request with an unknown method ends in a typed error, not a retry', async () => {
    const person = recordingWaitFor(confirmYes);
    connection = await connect({ url: server.url }, { waitFor: person.waitFor, era: 'modern' });
    const error = await rejection(connection.callTool({ name: 'unknown_method', arguments: {} }));
    expect(error.code).toBe<BridgeErrorCode>('unsupported_input_request');
    expect(server.calls).toHaveLength(1);
    expect(person.requests).toEqual([]);
  });

  test('sampling asked of a host without a sampling handler: unsupported_input_request, nothing sent', async () => {
    // The SDK server would not ask an undeclared capability; this one does, so the bridge's own
    // refusal is what is exercised.
    const person = recordingWaitFor(confirmYes);
    connection = await connect({ url: server.url }, { waitFor: person.waitFor, era: 'modern' });
    const error = await rejection(connection.callTool({ name: 'ask_sampling', arguments: {} }));
    expect(error.code).toBe<BridgeErrorCode>('unsupported_input_request');
    expect(error.message).toContain('sampling/createMessage');
    expect(server.calls).toHaveLength(1);
    expect(person.requests).toEqual([]);
  });

  test('the same inputRequest reaches a sampling handler when the host gives one', async () => {
    const person = recordingWaitFor(confirmYes);
    const seen: unknown[] = [];
    connection = await connect(
      { url: server.url },
      {
        waitFor: person.waitFor,
        era: 'modern',
        sampling: async (params, context) => {
          seen.push([params['maxTokens'], context.origin]);
          return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' };
        },
      },
    );
    const result = await connection.callTool({ name: 'ask_sampling', arguments: {} });
    expect(resultText(result)).toBe('sampled');
    expect(seen).toEqual([
      [5, { server: 'hostile-raw', era: 'modern', tool: 'ask_sampling', inputKey: 'llm' }],
    ]);
    expect(server.calls).toHaveLength(2);
  });

  test("a result without resultType is complete for the bridge's calls; the host's own calls are left to the SDK", async () => {
    const person = recordingWaitFor(confirmYes);
    connection = await connect({ url: server.url }, { waitFor: person.waitFor, era: 'modern' });
    const result = await connection.callTool({ name: 'no_result_type', arguments: {} });
    expect(resultText(result)).toBe('untyped');
    // The same client, a call the bridge did not issue: its response is not rewritten, so the
    // SDK's own handling (its modern codec refuses a missing resultType) applies unchanged.
    const client = connection.client as { callTool(params: object): Promise<unknown> };
    const own = await client.callTool({ name: 'no_result_type', arguments: {} }).then(
      () => 'resolved',
      () => 'rejected',
    );
    expect(own).toBe('rejected');
    expect(server.calls).toHaveLength(2);
  });

  test('an unknown resultType is a typed error', async () => {
    const person = recordingWaitFor(confirmYes);
    connection = await connect({ url: server.url }, { waitFor: person.waitFor, era: 'modern' });
    const error = await rejection(
      connection.callTool({ name: 'unknown_result_type', arguments: {} }),
    );
    expect(error.code).toBe<BridgeErrorCode>('unknown_result_type');
    expect(server.calls).toHaveLength(1);
  });
});

describe('hostile server, legacy era, v1 SDK client', () => {
  let server: HostileHttpServer;
  let client: V1Client;
  let bridge: Bridge;
  beforeEach(async () => {
    server = await startHostileHttpServer();
  });
  afterEach(async () => {
    await client?.close();
    await server.close();
  });

  const open = async (waitFor: WaitFor) => {
    client = new V1Client(
      { name: 'hostile-v1', version: '1.0.0' },
      { capabilities: elicitationCapabilities({ waitFor }) },
    );
    bridge = attachWaitFor(client, { waitFor });
    await bridge.ready;
    await client.connect(new V1StreamableHTTPClientTransport(new URL(server.url)));
  };
  const replies = (tool: string) =>
    server.log.entries
      .filter((entry) => entry.tool === tool && entry.kind !== 'call')
      .map((entry) => entry.value);

  test('malformed params and a nested schema are refused without asking the person', async () => {
    const person = recordingWaitFor(confirmYes);
    await open(person.waitFor);
    for (const name of ['malformed_params', 'bad_schema']) {
      const result = await bridge.callTool({ name, arguments: {} });
      // The v1 SDK validates the pushed request itself and refuses with -32603 (its zod issues as the
      // message) before any handler runs; the v2 SDK uses -32602 for the same thing.
      expect(resultText(result)).toBe('refused: -32603');
    }
    expect(person.requests).toEqual([]);
  });

  test('a waitFor that throws is answered cancel, exactly once', async () => {
    const person = recordingWaitFor(() => Promise.reject(new Error('the UI crashed')));
    await open(person.waitFor);
    await bridge.callTool({ name: 'confirm', arguments: {} });
    expect(replies('confirm')).toEqual([{ action: 'cancel' }]);
    expect(person.requests).toHaveLength(1);
  });

  test('an abort reaches the open question: its signal aborts and the push is answered cancel once', async () => {
    const person = recordingWaitFor(() => new Promise<Answer>(() => {}));
    await open(person.waitFor);
    const controller = new AbortController();
    const call = bridge.callTool({ name: 'confirm', arguments: {} }, { signal: controller.signal });
    await expect.poll(() => person.requests.length).toBe(1);
    expect(person.signals[0]?.aborted).toBe(false);
    controller.abort(new Error('the person walked away'));
    const error = await rejection(withDeadline(call, 5_000));
    expect(error.code).toBe<BridgeErrorCode>('aborted');
    expect(person.signals[0]?.aborted).toBe(true);
    await expect.poll(() => replies('confirm')).toEqual([{ action: 'cancel' }]);
    expect(person.requests).toHaveLength(1);
  });

  test('a well-formed question is answered once through the same waitFor', async () => {
    const person = recordingWaitFor(confirmYes);
    await open(person.waitFor);
    const result = await bridge.callTool({ name: 'confirm', arguments: {} });
    expect(resultText(result)).toContain('"confirmed":true');
    expect(replies('confirm')).toEqual([{ action: 'accept', content: { confirmed: true } }]);
    expect(person.requests[0]?.data?.origin).toMatchObject({
      server: 'hostile',
      era: 'legacy',
      tool: 'confirm',
    });
  });
});
