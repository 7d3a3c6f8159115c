/**
 * "Every failure is a BridgeError": wire errors keep the peer's JSON-RPC error in `rpc` (a v1
 * server's -32000 included), local SDK failures are `client_error` without `rpc`, and the bound
 * connection functions wrap what the SDK throws. Real servers over stdio and HTTP.
 */
import { describe, expect, it } from 'vitest';
import {
  openClient,
  scriptedPerson,
  v1PushFixture,
  type ClientKind,
  useDualEraServer,
} from './__fixtures__/clients';
import { BridgeError, connect } from './index';

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

const noQuestions = scriptedPerson(() => {
  throw new Error('nothing is asked here');
});

describe.each<ClientKind>(['v2-legacy', 'v1'])('%s client', (kind) => {
  it("a server's -32000 response is a server_error with rpc; the connection closing is a local client_error", async () => {
    const { attachment, bridge, close } = await openClient(
      kind,
      'stdio',
      { args: [v1PushFixture] },
      { waitFor: noQuestions.waitFor },
    );
    let closes = 0;
    attachment.host.on('close', () => (closes += 1));
    try {
      const wire = await failure(
        bridge.getPrompt({ name: 'fail', arguments: { message: 'Upstream unavailable' } }),
      );
      expect(BridgeError.isInstance(wire)).toBe(true);
      expect(wire).toMatchObject({
        code: 'server_error',
        rpc: { code: -32000, message: 'Upstream unavailable' },
      });

      // The server process exits while the call is open.
      const local = await failure(bridge.callTool({ name: 'exit' }));
      expect(BridgeError.isInstance(local)).toBe(true);
      expect(local).toMatchObject({ code: 'client_error', rpc: undefined });
      expect(closes).toBe(1);
    } finally {
      await close();
    }
  });
});

describe('connection functions', () => {
  const server = useDualEraServer();

  it('listTools wraps SDK failures in a BridgeError; resume and durable prompts are bound', async () => {
    const connection = await connect(
      { url: server.url },
      { waitFor: noQuestions.waitFor, era: 'modern' },
    );
    const tools = await connection.listTools();
    expect((tools['tools'] as unknown[]).length).toBeGreaterThan(0);

    const outcome = await connection.getPrompt({ name: 'ask_prompt' }, { durable: true });
    expect(outcome.status).toBe('suspended');
    if (outcome.status !== 'suspended') return;
    const [request] = outcome.suspension.requests;
    const done = await connection.resume(outcome.suspension, [
      { id: request!.id, ok: true, data: { topic: 'ice' } },
    ]);
    expect(done).toMatchObject({
      status: 'complete',
      result: { messages: [{ content: { text: 'Tell me about ice' } }] },
    });
    const resource = await connection.readResource({ uri: 'waitfor://asked' }, { durable: true });
    expect(resource.status).toBe('suspended');

    // The SDK refuses a request whose signal already aborted: that failure comes back wrapped.
    const reason = new Error('the host gave up');
    const error = await failure(connection.listTools({ signal: AbortSignal.abort(reason) }));
    expect(BridgeError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'aborted', rpc: undefined });
    expect(BridgeError.isInstance((error as BridgeError).cause)).toBe(false);
    await connection.close();
  });
});
