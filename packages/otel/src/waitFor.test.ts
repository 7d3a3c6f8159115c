/**
 * An instrumented waitFor records the questions it answers on its own (a host tool's, an inbox's),
 * with or without the bridge; a call inside an active span is that span's child and links the
 * trace its params carry.
 */
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { createInbox, decline, expire, type Request } from '@waitfor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestSdk, stackContextManager } from './__fixtures__/sdk';
import { createTelemetry, instrumentWaitFor } from './index';

const approval = (id: string): Request => ({
  id,
  kind: 'approval',
  prompt: 'Deploy to production?',
  data: { origin: { server: 'deploy-tool' } },
});

describe('instrumentWaitFor', () => {
  it('records an inbox question with its outcome, as a root span', async () => {
    const sdk = createTestSdk();
    const inbox = createInbox();
    const waitFor = instrumentWaitFor(inbox.waitFor, { tracer: sdk.tracer, meter: sdk.meter });
    const declined = waitFor(approval('a-1'));
    expect(await sdk.sum('waitfor.questions.open', { 'waitfor.server.name': 'deploy-tool' })).toBe(
      1,
    );
    inbox.answer(decline('a-1'));
    expect((await declined).reason).toBe('declined');
    const expired = waitFor(approval('a-2'));
    inbox.answer(expire('a-2'));
    await expired;
    const other = waitFor(approval('a-3'));
    inbox.answer({ id: 'a-3', ok: false, reason: 'superseded' });
    await other;
    await vi.waitFor(() => expect(sdk.spans()).toHaveLength(3));
    expect(
      sdk
        .spans()
        .map((span) => [
          span.attributes['waitfor.request.kind'],
          span.attributes['waitfor.question.outcome'],
          span.parentSpanContext,
        ]),
    ).toEqual([
      ['approval', 'declined', undefined],
      ['approval', 'expired', undefined],
      ['approval', 'other', undefined],
    ]);
    expect(sdk.spans()[0]!.attributes).not.toHaveProperty('waitfor.question.mode');
    expect(await sdk.sum('waitfor.questions.open')).toBe(0);
    expect(await sdk.sum('waitfor.question.outcomes', { 'waitfor.request.kind': 'approval' })).toBe(
      3,
    );
  });

  it('ends a question whose waitFor ignores the abort as cancelled', async () => {
    const sdk = createTestSdk();
    const waitFor = instrumentWaitFor(() => new Promise(() => undefined), {
      tracer: sdk.tracer,
      meter: sdk.meter,
    });
    const controller = new AbortController();
    void waitFor(approval('a-4'), { signal: controller.signal });
    controller.abort();
    await vi.waitFor(() => expect(sdk.spans()).toHaveLength(1));
    expect(sdk.spans()[0]!.attributes['waitfor.question.outcome']).toBe('cancelled');
    expect(await sdk.sum('waitfor.questions.open')).toBe(0);
  });

  it('records a question that the waitFor rejects as cancelled, and rethrows', async () => {
    const sdk = createTestSdk();
    const failure = new Error('storage down');
    const waitFor = instrumentWaitFor(() => Promise.reject(failure), { tracer: sdk.tracer });
    await expect(waitFor(approval('a-5'))).rejects.toBe(failure);
    expect(sdk.spans()[0]!.attributes['waitfor.question.outcome']).toBe('cancelled');
  });
});

describe('active context', () => {
  afterEach(() => context.disable());

  it('makes the call a child of the active span and links the trace its params carry', async () => {
    context.setGlobalContextManager(stackContextManager());
    const sdk = createTestSdk();
    const telemetry = createTelemetry({ tracer: sdk.tracer });
    const parent = sdk.tracer.startSpan('agent step');
    const carried = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    const params: Record<string, unknown> = { name: 'ask_form', _meta: { traceparent: carried } };
    const callerMeta = params['_meta'];
    await context.with(trace.setSpan(ROOT_CONTEXT, parent), () =>
      telemetry.aroundCall!(
        {
          method: 'tools/call',
          params,
          era: 'modern',
          serverName: 'fixture',
          waitFor: async (request) => decline(request),
          modes: ['form'],
        },
        async () => ({ status: 'complete', result: {} }),
      ),
    );
    parent.end();
    const call = sdk.spans().find((span) => span.name === 'tools/call ask_form')!;
    expect(call.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(call.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual([
      ['a'.repeat(32), 'b'.repeat(16)],
    ]);
    // The call's own traceparent replaces the carried one in a new `_meta`; the caller's is untouched.
    expect(params['_meta']).toEqual({
      traceparent: `00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`,
    });
    expect(callerMeta).toEqual({ traceparent: carried });
  });
});
