/**
 * Telemetry of bridge calls over real transports: v2 clients of both eras and a v1 client (legacy
 * era) against the dual-era fixture server, with a real OpenTelemetry SDK exporting to memory.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { accept, decline, expire, type Answer, type Request } from '@waitfor/core';
import { BridgeError, type AttachOptions } from '@waitfor/mcp-bridge';
import { describe, expect, it, vi } from 'vitest';
import {
  scriptedPerson,
  textOf,
  useDualEraServer,
  withOpenClient,
  type Calls,
} from '../../mcp-bridge/src/__fixtures__/clients';
import { createTestSdk, everyRecordedString } from './__fixtures__/sdk';
import { createTelemetry } from './index';

const server = useDualEraServer();

type TestSdk = ReturnType<typeof createTestSdk>;

const questionSpans = (sdk: TestSdk) =>
  sdk.spans().filter((span) => span.name.startsWith('waitfor.question'));
const callSpan = (sdk: TestSdk, name: string): ReadableSpan => {
  const found = sdk.spans().filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const isChildOf = (child: ReadableSpan, parent: ReadableSpan) =>
  child.parentSpanContext?.spanId === parent.spanContext().spanId &&
  child.spanContext().traceId === parent.spanContext().traceId;

/** The traceparents the fixture server received in tools/call, prompts/get and resources/read params. */
const receivedTraceparents = () =>
  server.received.map(
    (entry) =>
      (entry.message as { params?: { _meta?: { traceparent?: unknown } } }).params?._meta
        ?.traceparent,
  );

describe.each(['v2-modern', 'v2-legacy', 'v1'] as const)('%s client', (kind) => {
  const era = kind === 'v2-modern' ? 'modern' : 'legacy';

  /** Open a client with the telemetry attached and the person's waitFor instrumented. */
  async function withTelemetry(
    script: (request: Request, index: number) => Answer | Promise<Answer>,
    body: (bridge: Calls, sdk: TestSdk) => Promise<void>,
    attach: Partial<AttachOptions> = {},
  ) {
    const sdk = createTestSdk();
    const telemetry = createTelemetry({ tracer: sdk.tracer, meter: sdk.meter });
    const person = scriptedPerson(script);
    try {
      await withOpenClient(
        kind,
        'http',
        { url: server.url },
        { ...attach, waitFor: telemetry.instrument(person.waitFor), extensions: [telemetry] },
        (_client, bridge) => body(bridge, sdk),
      );
    } finally {
      await sdk.shutdown();
    }
  }

  it('records a call span with a child span per question, and sends its traceparent', async () => {
    await withTelemetry(
      (request) => accept(request, { name: 'Ada' }),
      async (bridge, sdk) => {
        expect(textOf(await bridge.callTool({ name: 'ask_form' }))).toContain('accept');
        await vi.waitFor(() => expect(sdk.spans()).toHaveLength(2));
        const call = callSpan(sdk, 'tools/call ask_form');
        const [question] = questionSpans(sdk);
        expect(call.kind).toBe(SpanKind.CLIENT);
        expect(call.attributes).toMatchObject({
          'mcp.method.name': 'tools/call',
          'gen_ai.tool.name': 'ask_form',
          'gen_ai.operation.name': 'execute_tool',
          'waitfor.server.name': 'dual-era-fixture',
          'waitfor.era': era,
          'waitfor.call.questions': 1,
          'waitfor.call.status': 'complete',
        });
        if (era === 'modern') {
          expect(call.attributes).toMatchObject({
            'mcp.protocol.version': '2026-07-28',
            'waitfor.call.rounds': 1,
          });
        } else {
          // The revision the bridge's client negotiated, with no `server` option given.
          expect(call.attributes).toMatchObject({ 'mcp.protocol.version': '2025-11-25' });
          expect(call.attributes).not.toHaveProperty('waitfor.call.rounds');
        }
        expect(isChildOf(question!, call)).toBe(true);
        expect(question!.attributes).toMatchObject({
          'waitfor.request.kind': 'input',
          'waitfor.question.mode': 'form',
          'waitfor.server.name': 'dual-era-fixture',
          'waitfor.era': era,
          'gen_ai.tool.name': 'ask_form',
          'waitfor.question.attempt': 1,
          'waitfor.question.outcome': 'accepted',
        });
        if (era === 'modern') expect(question!.attributes['waitfor.input.key']).toBe('profile');
        const { traceId, spanId } = call.spanContext();
        expect(receivedTraceparents()).toContain(`00-${traceId}-${spanId}-01`);

        expect(
          await sdk.sum('waitfor.question.outcomes', { 'waitfor.question.outcome': 'accepted' }),
        ).toBe(1);
        expect(await sdk.sum('waitfor.questions.open')).toBe(0);
        expect((await sdk.histogram('waitfor.question.duration')).count).toBe(1);
        expect(await sdk.histogram('waitfor.call.rounds')).toEqual(
          era === 'modern' ? { count: 1, sum: 1 } : { count: 0, sum: 0 },
        );
      },
    );
  });

  it('records an invalid answer, its re-ask, and the valid answer', async () => {
    await withTelemetry(
      (request, index) => accept(request, { name: index === 0 ? '' : 'Ada' }),
      async (bridge, sdk) => {
        expect(textOf(await bridge.callTool({ name: 'ask_form' }))).toContain('Ada');
        await vi.waitFor(() => expect(sdk.spans()).toHaveLength(3));
        const call = callSpan(sdk, 'tools/call ask_form');
        const attempts = questionSpans(sdk).map((span) => [
          span.attributes['waitfor.question.attempt'],
          span.attributes['waitfor.question.outcome'],
          isChildOf(span, call),
        ]);
        expect(attempts).toEqual([
          [1, 'invalid', true],
          [2, 'accepted', true],
        ]);
        expect(call.attributes['waitfor.call.questions']).toBe(2);
        // A re-ask is the same round.
        if (era === 'modern') expect(call.attributes['waitfor.call.rounds']).toBe(1);
        expect(await sdk.sum('waitfor.question.reasks')).toBe(1);
        expect(
          await sdk.sum('waitfor.question.outcomes', { 'waitfor.question.outcome': 'invalid' }),
        ).toBe(1);
        expect(
          await sdk.sum('waitfor.question.outcomes', { 'waitfor.question.outcome': 'accepted' }),
        ).toBe(1);
      },
    );
  });

  it("records the bridge's verdict on each answer: invalid every time a form fails (its last attempt too), accepted, declined, expired, other", async () => {
    // Per call: two invalid forms (the second is the last attempt: the question ends cancelled),
    // then a valid one, a decline, an expiry and a refusal the bridge has no name for.
    const answers: Array<(request: Request) => Answer> = [
      (request) => accept(request, { name: '' }),
      (request) => accept(request, { name: '' }),
      (request) => accept(request, { name: 'Ada' }),
      (request) => decline(request),
      (request) => expire(request),
      (request) => ({ id: request.id, ok: false, reason: 'connection_lost' }),
    ];
    await withTelemetry(
      (request, index) => answers[index]!(request),
      async (bridge, sdk) => {
        const results = [];
        for (let call = 0; call < 5; call++)
          results.push(textOf(await bridge.callTool({ name: 'ask_form' })));
        expect(results).toEqual(['cancel', 'accept:{"name":"Ada"}', 'decline', 'cancel', 'cancel']);
        await vi.waitFor(() => expect(questionSpans(sdk)).toHaveLength(6));
        const outcomes = questionSpans(sdk)
          .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])
          .map((span) => span.attributes['waitfor.question.outcome']);
        expect(outcomes).toEqual([
          'invalid',
          'invalid',
          'accepted',
          'declined',
          'expired',
          'other',
        ]);
        for (const [outcome, count] of Object.entries({ invalid: 2, accepted: 1, other: 1 }))
          expect(
            await sdk.sum('waitfor.question.outcomes', { 'waitfor.question.outcome': outcome }),
            outcome,
          ).toBe(count);
        expect(await sdk.sum('waitfor.questions.open')).toBe(0);
      },
      { maxAttempts: 2 },
    );
  });

  it('records a decline', async () => {
    await withTelemetry(
      (request) => decline(request),
      async (bridge, sdk) => {
        expect(textOf(await bridge.callTool({ name: 'ask_form' }))).toBe('decline');
        await vi.waitFor(() => expect(questionSpans(sdk)).toHaveLength(1));
        expect(questionSpans(sdk)[0]!.attributes['waitfor.question.outcome']).toBe('declined');
        expect(
          await sdk.sum('waitfor.question.outcomes', { 'waitfor.question.outcome': 'declined' }),
        ).toBe(1);
        expect(await sdk.sum('waitfor.question.reasks')).toBe(0);
      },
    );
  });

  it('records an aborted call as an error and its open question as cancelled', async () => {
    const controller = new AbortController();
    let asked!: () => void;
    const seen = new Promise<void>((resolve) => (asked = resolve));
    // The person never answers: only the abort ends the wait.
    const never = (request: Request, _index: number) => {
      asked();
      return new Promise<Answer>(() => void request);
    };
    await withTelemetry(never, async (bridge, sdk) => {
      const call = bridge.callTool({ name: 'ask_form' }, { signal: controller.signal });
      await seen;
      controller.abort();
      const error = await call.catch((caught: unknown) => caught);
      expect(BridgeError.isInstance(error) && error.code).toBe('aborted');
      await vi.waitFor(() => expect(sdk.spans()).toHaveLength(2));
      const span = callSpan(sdk, 'tools/call ask_form');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('aborted');
      expect(questionSpans(sdk)[0]!.attributes['waitfor.question.outcome']).toBe('cancelled');
      expect(await sdk.sum('waitfor.questions.open')).toBe(0);
    });
  });

  it('names prompts/get and resources/read spans after their target', async () => {
    await withTelemetry(
      (request) =>
        accept(request, request.prompt === 'Which topic?' ? { topic: 'otters' } : { word: 'hi' }),
      async (bridge, sdk) => {
        await bridge.getPrompt({ name: 'ask_prompt' });
        await bridge.readResource({ uri: 'waitfor://asked' });
        await vi.waitFor(() => expect(sdk.spans()).toHaveLength(4));
        const prompt = callSpan(sdk, 'prompts/get ask_prompt');
        const resource = callSpan(sdk, 'resources/read');
        expect(prompt.attributes['gen_ai.prompt.name']).toBe('ask_prompt');
        expect(resource.attributes['mcp.resource.uri']).toBe('waitfor://asked');
        const parents = questionSpans(sdk).map((span) =>
          isChildOf(span, prompt) ? 'prompt' : isChildOf(span, resource) ? 'resource' : 'none',
        );
        expect(parents.sort()).toEqual(['prompt', 'resource']);
      },
    );
  });

  it('never records an answer, a form value, or a URL query or fragment', async () => {
    const secret = `secret-${crypto.randomUUID()}`;
    await withTelemetry(
      (request) => accept(request, request.url === undefined ? { name: secret } : undefined),
      async (bridge, sdk) => {
        expect(textOf(await bridge.callTool({ name: 'ask_form' }))).toContain(secret);
        await bridge.callTool({ name: 'ask_url' });
        await expect(
          bridge.readResource({ uri: `waitfor://missing?token=${secret}#${secret}` }),
        ).rejects.toThrow();
        await vi.waitFor(() => expect(sdk.spans()).toHaveLength(5));
        const url = questionSpans(sdk).find(
          (span) => span.attributes['waitfor.question.mode'] === 'url',
        );
        expect(url?.attributes['waitfor.question.url']).toBe('https://example.com/login');
        expect(callSpan(sdk, 'resources/read').attributes['mcp.resource.uri']).toBe(
          'waitfor://missing',
        );
        const recorded = await everyRecordedString(sdk);
        expect(recorded).toContain('ask_form');
        expect(recorded).not.toContain(secret);
        expect(recorded).not.toContain('flow=1');
      },
    );
  });
});

describe('modern era rounds and attribution', () => {
  it('counts the rounds that asked someone, and leaves ambiguous questions without a call parent', async () => {
    const sdk = createTestSdk();
    const telemetry = createTelemetry({ tracer: sdk.tracer, meter: sdk.meter });
    const person = scriptedPerson((request) =>
      accept(
        request,
        request.prompt === 'Which city?'
          ? { city: 'Lisbon' }
          : request.prompt.startsWith('Confirm')
            ? { confirm: true }
            : request.prompt.startsWith('Question')
              ? { value: 'v' }
              : { name: 'Ada' },
      ),
    );
    await withOpenClient(
      'v2-modern',
      'http',
      { url: server.url },
      { waitFor: person.waitFor, extensions: [telemetry] },
      async (_client, bridge) => {
        expect(textOf(await bridge.callTool({ name: 'two_rounds' }))).toBe(
          'city=Lisbon confirm=true',
        );
        await vi.waitFor(() => expect(sdk.spans()).toHaveLength(3));
        const rounds = callSpan(sdk, 'tools/call two_rounds');
        expect(rounds.attributes).toMatchObject({
          'waitfor.call.rounds': 2,
          'waitfor.call.questions': 2,
        });
        expect(questionSpans(sdk).every((span) => isChildOf(span, rounds))).toBe(true);
        expect(await sdk.histogram('waitfor.call.rounds')).toEqual({ count: 1, sum: 2 });

        // Three questions in one round are one round.
        await bridge.callTool({ name: 'fan_out', arguments: { count: 3 } });
        await vi.waitFor(() => expect(sdk.spans()).toHaveLength(7));
        expect(callSpan(sdk, 'tools/call fan_out').attributes).toMatchObject({
          'waitfor.call.rounds': 1,
          'waitfor.call.questions': 3,
        });

        // Two identical calls at once: either could have asked each question.
        await Promise.all([
          bridge.callTool({ name: 'ask_form' }),
          bridge.callTool({ name: 'ask_form' }),
        ]);
        await vi.waitFor(() => expect(sdk.spans()).toHaveLength(11));
        const asked = questionSpans(sdk).filter(
          (span) => span.attributes['gen_ai.tool.name'] === 'ask_form',
        );
        expect(asked.map((span) => span.parentSpanContext)).toEqual([undefined, undefined]);
      },
    );
    await sdk.shutdown();
  });
});
