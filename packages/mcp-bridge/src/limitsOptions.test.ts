/**
 * The `limits` option itself, against the real dual-era server: a bad limit is the host's mistake
 * (`invalid_options`, before anything is sent), and a call's own limits apply over its
 * attachment's, in both eras, through `attachWaitFor` and `connect`, refusing before anyone is asked.
 */
import { accept } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import {
  bridgePaths,
  openClient,
  scriptedPerson,
  textOf,
  useDualEraServer,
  withOpenClient,
} from './__fixtures__/clients';
import { BridgeError, connect } from './index';
import { defaultBridgeLimits } from './limits';

const server = useDualEraServer();

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (BridgeError.isInstance(error) ? error : undefined),
  );

describe('limits option', () => {
  it('documents its defaults', () => {
    expect(defaultBridgeLimits).toEqual({
      requestState: 4_194_304,
      inputRequests: 100,
      form: {},
      taskId: 256,
      taskOpenKeys: 100,
      taskKeys: 1000,
    });
  });

  it.each([
    [{ requestState: -1 }],
    [{ inputRequests: Number.NaN }],
    [{ form: { fields: -5 } }],
    [{ form: { unknown: 1 } as never }],
  ])('refuses the bad limits %j with invalid_options', async (limits) => {
    const person = scriptedPerson((request) => accept(request));
    const refused = await failure(
      connect({ url: server.url }, { waitFor: person.waitFor, limits }),
    );
    expect(refused?.code).toBe('invalid_options');
    await withOpenClient(
      'v2-modern',
      'http',
      { url: server.url },
      person,
      async (client, bridge) => {
        const from = server.received.length;
        const error = await failure(bridge.callTool({ name: 'ask_form' }, { limits }));
        expect(error?.code).toBe('invalid_options');
        expect(server.received.length).toBe(from);
      },
    );
  });

  it('modern era: a call with a lower inputRequests limit refuses the round before anyone is asked', async () => {
    const person = scriptedPerson((request) => accept(request, { value: 'x' }));
    await withOpenClient(
      'v2-modern',
      'http',
      { url: server.url },
      person,
      async (client, bridge) => {
        const error = await failure(
          bridge.callTool(
            { name: 'fan_out', arguments: { count: 3 } },
            { limits: { inputRequests: 2 } },
          ),
        );
        expect(error?.code).toBe('invalid_params');
        expect(error?.message).toMatch(/inputRequests is past the limit of 2/);
        expect(person.seen).toEqual([]);
        // The attachment's own (default) limits still serve the next call.
        expect(textOf(await bridge.callTool({ name: 'fan_out', arguments: { count: 3 } }))).toMatch(
          /^q1=accept/,
        );
      },
    );
  });

  it.each(bridgePaths)(
    '%s, %s client: form limits of a call (over its attachment) refuse the form before anyone is asked',
    async (path, kind) => {
      const person = scriptedPerson((request) => accept(request, { name: 'Ada' }));
      const { bridge, close } = await openClient(
        kind,
        'http',
        { url: server.url },
        {
          waitFor: person.waitFor,
          limits: { form: { fields: 100 } },
        },
        path,
      );
      try {
        const call = bridge.callTool({ name: 'ask_form' }, { limits: { form: { fields: 2 } } });
        if (kind === 'v2-modern') {
          expect((await failure(call))?.code).toBe('invalid_params');
        } else {
          // The pushed elicitation/create is answered with JSON-RPC -32602 (seen on the wire).
          const from = server.received.length;
          await call.catch(() => undefined);
          const refusals = server.received
            .slice(from)
            .filter((entry) => (entry.message['error'] as { code?: number } | undefined)?.code);
          expect(
            refusals.map((entry) => (entry.message['error'] as { code: number }).code),
          ).toEqual([-32602]);
        }
        expect(person.seen).toEqual([]);
        expect(textOf(await bridge.callTool({ name: 'ask_form' }))).toBe('accept:{"name":"Ada"}');
        expect(person.seen).toHaveLength(1);
      } finally {
        await close();
      }
    },
  );
});
