/**
 * The bridge's own input_required loop against the real dual-era server, modern era, observed on
 * the wire (the fixture records every JSON-RPC message it receives), through `attachWaitFor` and
 * through `connect`.
 */
import { accept, type Request } from '@waitfor/core';
import { describe, expect, it, vi } from 'vitest';
import {
  openClient,
  type BridgePath,
  scriptedPerson,
  textOf,
  type OpenClient,
  useDualEraServer,
} from './__fixtures__/clients';
import { ODD_STATE, type ReceivedMessage } from './__fixtures__/dualEraServer';
import { BridgeError } from './index';

const server = useDualEraServer();

/** The tools/call legs of `tool` received since `from`. */
const legs = (tool: string, from: number): ReceivedMessage['message'][] =>
  server.received
    .slice(from)
    .map((entry) => entry.message)
    .filter((message) => message.method === 'tools/call' && message.params?.['name'] === tool);

describe.each<BridgePath>(['attachWaitFor', 'connect'])(
  'modern-era input_required loop, %s',
  (path) => {
    const modernClient = (
      waitFor: Parameters<typeof openClient>[3]['waitFor'],
      extra: Partial<Parameters<typeof openClient>[3]> = {},
    ): Promise<OpenClient> =>
      openClient('v2-modern', 'http', { url: server.url }, { waitFor, ...extra }, path);

    it('resolves the inputRequests of a round concurrently', async () => {
      const events: Array<{ id: string; type: 'start' | 'end'; at: number }> = [];
      const { bridge, close } = await modernClient(async (request) => {
        events.push({ id: request.id, type: 'start', at: performance.now() });
        // Each question waits until all five are asked: a round asked one by one never gets there,
        // and the bounded wait fails it (no fixed time decides).
        await vi.waitFor(() => {
          if (events.filter((event) => event.type === 'start').length < 5)
            throw new Error('waiting');
        }, 5_000);
        events.push({ id: request.id, type: 'end', at: performance.now() });
        return accept(request, { value: 'ok' });
      });
      try {
        const result = await bridge.callTool({ name: 'fan_out', arguments: { count: 5 } });
        expect(textOf(result)).toBe(
          ['q1', 'q2', 'q3', 'q4', 'q5'].map((key) => `${key}=accept:{"value":"ok"}`).join(' '),
        );
        const starts = events.filter((event) => event.type === 'start');
        const firstEnd = events.findIndex((event) => event.type === 'end');
        expect(starts).toHaveLength(5);
        // All five waitFor calls began before any of them finished: they overlap.
        expect(events.slice(0, firstEnd).filter((event) => event.type === 'start')).toHaveLength(5);
      } finally {
        await close();
      }
    });

    it('echoes requestState byte-exact, omits it when none was sent, and uses a fresh id per leg', async () => {
      const person = scriptedPerson((request) =>
        request.prompt === 'Which city?'
          ? accept(request, { city: 'Oslo' })
          : accept(request, request.prompt === 'Go on?' ? { go: true } : { confirm: true }),
      );
      const { bridge, close } = await modernClient(person.waitFor);
      try {
        const from = server.received.length;
        expect(textOf(await bridge.callTool({ name: 'odd_state' }))).toBe('state-ok');
        const odd = legs('odd_state', from);
        expect(odd).toHaveLength(2);
        expect(odd[0]?.params).not.toHaveProperty('requestState');
        expect(odd[1]?.params?.['requestState']).toBe(ODD_STATE);
        expect(odd[1]?.params?.['inputResponses']).toEqual({
          go: { action: 'accept', content: { go: true } },
        });

        const twoFrom = server.received.length;
        expect(textOf(await bridge.callTool({ name: 'two_rounds' }))).toBe(
          'city=Oslo confirm=true',
        );
        const two = legs('two_rounds', twoFrom);
        expect(two).toHaveLength(3);
        // Round 1 carried no state, so its retry carries none; round 2's state is echoed on leg 3.
        expect(two[0]?.params).not.toHaveProperty('requestState');
        expect(two[1]?.params).not.toHaveProperty('requestState');
        expect(Object.keys(two[1]?.params?.['inputResponses'] as object)).toEqual(['first']);
        expect(typeof two[2]?.params?.['requestState']).toBe('string');
        expect(Object.keys(two[2]?.params?.['inputResponses'] as object)).toEqual(['second']);
        const ids = [...odd, ...two].map((message) => message.id);
        expect(new Set(ids).size).toBe(ids.length);
        // Every retry repeats the original params.
        expect(
          two.every((message) => JSON.stringify(message.params?.['arguments'] ?? {}) === '{}'),
        ).toBe(true);
      } finally {
        await close();
      }
    });

    it("keeps one call's state and answers out of parallel calls", async () => {
      // The city stays unanswered until the other call's form is answered: the calls interleave
      // by construction, not by how long each sleeps.
      let formAnswered = (): void => {};
      const formDone = new Promise<void>((resolve) => {
        formAnswered = resolve;
      });
      const person = scriptedPerson(async (request) => {
        if (request.prompt === 'Which city?') {
          await formDone;
          return accept(request, { city: 'Rome' });
        }
        if (request.prompt.startsWith('Confirm')) return accept(request, { confirm: false });
        formAnswered();
        return accept(request, { name: 'Lin' });
      });
      const { client, bridge, close } = await modernClient(person.waitFor);
      try {
        const from = server.received.length;
        const [two, form, listed] = await Promise.all([
          bridge.callTool({ name: 'two_rounds' }),
          bridge.callTool({ name: 'ask_form' }),
          (client as { listTools(): Promise<{ tools: unknown[] }> }).listTools(),
        ]);
        expect(textOf(two)).toBe('city=Rome confirm=false');
        expect(textOf(form)).toBe('accept:{"name":"Lin"}');
        expect(listed.tools.length).toBeGreaterThan(5);
        for (const message of legs('ask_form', from)) {
          expect(message.params).not.toHaveProperty('requestState');
          const keys = Object.keys(
            (message.params?.['inputResponses'] as object | undefined) ?? {},
          );
          expect(keys.every((key) => key === 'profile')).toBe(true);
        }
        const others = server.received
          .slice(from)
          .map((entry) => entry.message)
          .filter((message) => message.method !== 'tools/call');
        for (const message of others) {
          expect(message.params).not.toHaveProperty('requestState');
          expect(message.params).not.toHaveProperty('inputResponses');
        }
      } finally {
        await close();
      }
    });

    it('retries state-only rounds without inputResponses', async () => {
      const person = scriptedPerson((request) => accept(request));
      const { bridge, close } = await modernClient(person.waitFor);
      try {
        const from = server.received.length;
        expect(
          textOf(await bridge.callTool({ name: 'state_only', arguments: { rounds: 3 } })),
        ).toBe('state-only rounds=3');
        const sent = legs('state_only', from);
        expect(sent).toHaveLength(4);
        expect(
          sent.some(
            (message) => message.params !== undefined && 'inputResponses' in message.params,
          ),
        ).toBe(false);
        expect(person.seen).toHaveLength(0);
      } finally {
        await close();
      }
    });

    it('stops at the round cap with a typed error carrying the last result', async () => {
      const person = scriptedPerson((request) => accept(request, { value: 'again' }));
      const { bridge, close } = await modernClient(person.waitFor);
      try {
        const from = server.received.length;
        const error = await bridge
          .callTool({ name: 'endless' }, { maxRounds: 3 })
          .catch((caught: unknown) => caught);
        expect(BridgeError.isInstance(error)).toBe(true);
        expect((error as BridgeError).code).toBe('rounds_exceeded');
        expect((error as BridgeError).lastResult).toMatchObject({
          resultType: 'input_required',
          inputRequests: { again3: {} },
        });
        expect(person.seen).toHaveLength(3);
        expect(legs('endless', from)).toHaveLength(4);
      } finally {
        await close();
      }
    });

    it('ends the loop on abort mid-round, and the abort reaches every open waitFor', async () => {
      const signals: Array<{ request: Request; aborted: () => boolean }> = [];
      const controller = new AbortController();
      const { bridge, close } = await modernClient(
        (request, context) =>
          new Promise((resolve) => {
            signals.push({ request, aborted: () => context?.signal?.aborted === true });
            context?.signal?.addEventListener(
              'abort',
              () => resolve({ id: request.id, ok: false, reason: 'cancelled' }),
              { once: true },
            );
            if (signals.length === 2) controller.abort();
          }),
      );
      try {
        const from = server.received.length;
        const error = await bridge
          .callTool({ name: 'fan_out', arguments: { count: 2 } }, { signal: controller.signal })
          .catch((caught: unknown) => caught);
        expect((error as BridgeError).code).toBe('aborted');
        expect(signals.map((entry) => entry.aborted())).toEqual([true, true]);
        // "Nothing more was sent", observed: a later request on the same client has reached the
        // server (its answer is back), so a retry the aborted call sent first would be recorded.
        await bridge.callTool({ name: 'slow', arguments: { ms: 1 } });
        expect(legs('slow', from)).toHaveLength(1);
        expect(legs('fan_out', from)).toHaveLength(1);
      } finally {
        await close();
      }
    });

    it('passes sampling and roots inputRequests to host handlers, and refuses them when none is given', async () => {
      const person = scriptedPerson((request) => accept(request));
      const withHandlers = await modernClient(person.waitFor, {
        sampling: async (params) => ({
          role: 'assistant',
          content: { type: 'text', text: `hi to ${JSON.stringify(params['maxTokens'])}` },
          model: 'fake-model',
        }),
        roots: async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
      });
      try {
        expect(textOf(await withHandlers.bridge.callTool({ name: 'ask_sampling' }))).toBe(
          'model=fake-model',
        );
        expect(textOf(await withHandlers.bridge.callTool({ name: 'ask_roots' }))).toBe(
          'file:///work',
        );
      } finally {
        await withHandlers.close();
      }
      const without = await modernClient(person.waitFor);
      try {
        const error = await without.bridge
          .callTool({ name: 'ask_sampling' })
          .catch((caught: unknown) => caught);
        // End to end: sampling is not declared without a handler, so the SDK server refuses up front
        // (-32021, missing client capability). The bridge's own refusal of a sampling inputRequest it
        // cannot serve is exercised against a server that asks anyway (hostileClients.test.ts).
        expect(error).toMatchObject({ code: 'server_error', rpc: { code: -32021 } });
        expect(BridgeError.isInstance(error)).toBe(true);
      } finally {
        await without.close();
      }
    });

    it('refuses an unknown resultType with a typed error', async () => {
      const { bridge, close } = await modernClient(
        scriptedPerson((request) => accept(request)).waitFor,
      );
      try {
        const error = await bridge.callTool({ name: 'mystery' }).catch((caught: unknown) => caught);
        expect((error as BridgeError).code).toBe('unknown_result_type');
      } finally {
        await close();
      }
    });

    it("hands the host real AbortSignals for questions of the SDK's own driver (waitFor, sampling)", async () => {
      // The bridge's own bookkeeping signal of such a question is not an AbortSignal; what a host
      // gets (and may pass to fetch or AbortSignal.any) must be.
      const signals: unknown[] = [];
      const { client, close } = await modernClient(
        async (request, context) => {
          signals.push(context?.signal);
          return accept(request, { value: 'auto' });
        },
        {
          sampling: async (_params, context) => {
            signals.push(context.signal);
            return {
              role: 'assistant',
              content: { type: 'text', text: 'hi' },
              model: 'fake-model',
            };
          },
        },
      );
      try {
        const sdk = client as { callTool(params: object): Promise<unknown> };
        await sdk.callTool({ name: 'fan_out', arguments: { count: 1 } });
        expect(textOf(await sdk.callTool({ name: 'ask_sampling' }))).toBe('model=fake-model');
        expect(signals).toHaveLength(2);
        for (const signal of signals) expect(signal).toBeInstanceOf(AbortSignal);
      } finally {
        await close();
      }
    });

    it("routes the SDK's own input_required driver (plain client.callTool) to the same waitFor", async () => {
      const person = scriptedPerson((request) => accept(request, { value: 'auto' }));
      const { client, close } = await modernClient(person.waitFor);
      try {
        const result = await (client as { callTool(params: object): Promise<unknown> }).callTool({
          name: 'fan_out',
          arguments: { count: 2 },
        });
        expect(textOf(result)).toBe('q1=accept:{"value":"auto"} q2=accept:{"value":"auto"}');
        expect(person.seen.map((request) => request.data?.origin)).toEqual([
          { server: 'dual-era-fixture', era: 'modern', inputKey: 'q1' },
          { server: 'dual-era-fixture', era: 'modern', inputKey: 'q2' },
        ]);
      } finally {
        await close();
      }
    });
  },
);
