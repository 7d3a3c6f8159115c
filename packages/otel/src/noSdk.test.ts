/**
 * Without an OpenTelemetry SDK the telemetry does nothing: no span, no metric, no `traceparent` written
 * into the call. Registered later, the global SDK is picked up by the same telemetry (looked up per
 * call and per question).
 */
import { metrics, trace } from '@opentelemetry/api';
import { accept } from '@waitfor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  scriptedPerson,
  textOf,
  useDualEraServer,
  withOpenClient,
} from '../../mcp-bridge/src/__fixtures__/clients';
import { createTestSdk } from './__fixtures__/sdk';
import { createTelemetry } from './index';

const server = useDualEraServer();

/** The `_meta.traceparent` of every tools/call of `tool` the server received. */
const traceparentsOf = (tool: string) =>
  server.received
    .map((entry) => entry.message as { method?: string; params?: Record<string, unknown> })
    .filter((message) => message.method === 'tools/call' && message.params?.['name'] === tool)
    .map(
      (message) =>
        (message.params?.['_meta'] as { traceparent?: unknown } | undefined)?.traceparent,
    );

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe('without an SDK', () => {
  it('changes nothing, and records once a global SDK is registered', async () => {
    const telemetry = createTelemetry();
    const person = scriptedPerson((request) =>
      // ask_defaults: an accept without data takes the form's defaults.
      accept(request, request.prompt === 'Who are you?' ? { name: 'Ada' } : undefined),
    );
    await withOpenClient(
      'v2-modern',
      'http',
      { url: server.url },
      { waitFor: telemetry.instrument(person.waitFor), extensions: [telemetry] },
      async (_client, bridge) => {
        expect(textOf(await bridge.callTool({ name: 'ask_form' }))).toContain('Ada');
        expect(traceparentsOf('ask_form').length).toBeGreaterThan(0);
        expect(traceparentsOf('ask_form').every((value) => value === undefined)).toBe(true);

        const sdk = createTestSdk();
        trace.setGlobalTracerProvider(sdk.tracerProvider);
        metrics.setGlobalMeterProvider(sdk.meterProvider);
        await bridge.callTool({ name: 'ask_defaults' });
        // The MCP SDK may record spans of its own through the same global provider.
        const ours = () =>
          sdk.spans().filter((span) => span.instrumentationScope.name === '@waitfor/otel');
        await vi.waitFor(() => expect(ours()).toHaveLength(2));
        expect(ours().map((span) => span.name)).toEqual([
          'waitfor.question input',
          'tools/call ask_defaults',
        ]);
        expect(traceparentsOf('ask_defaults').every((value) => typeof value === 'string')).toBe(
          true,
        );
        expect(await sdk.sum('waitfor.question.outcomes')).toBe(1);
        await sdk.shutdown();
      },
    );
  });
});
