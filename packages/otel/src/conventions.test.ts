/**
 * The call span and `mcp.client.operation.duration` as the OpenTelemetry MCP semantic conventions
 * name them (`semantic-conventions-genai`, docs/gen-ai/mcp.md): URIs as given, JSON-RPC and tool
 * errors, the server's address and transport, the negotiated revision in both eras, and trace
 * context through the configured propagator. Real clients of both SDK generations against the
 * dual-era fixture, a real OpenTelemetry SDK.
 */
import {
  context,
  createTraceState,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { accept, type Request } from '@waitfor/core';
import { BridgeError } from '@waitfor/mcp-bridge';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  openClient,
  scriptedPerson,
  stdioFixture,
  tsxBinary,
  useDualEraServer,
  type BridgePath,
  type Calls,
  type ClientKind,
  type TransportKind,
} from '../../mcp-bridge/src/__fixtures__/clients';
import { createTestPropagator, createTestSdk, stackContextManager } from './__fixtures__/sdk';
import { createTelemetry, instrumentWaitFor, type TelemetryOptions } from './index';

const server = useDualEraServer();

type TestSdk = ReturnType<typeof createTestSdk>;

/** Open `kind` over `transport` with a telemetry that knows its target and client; run `body`. */
async function withTelemetry(
  [path, kind, transport]: [BridgePath, ClientKind, TransportKind],
  options: Omit<TelemetryOptions, 'tracer' | 'meter'>,
  body: (bridge: Calls, sdk: TestSdk) => Promise<void>,
) {
  const sdk = createTestSdk();
  const target =
    transport === 'http' ? { url: server.url } : { command: tsxBinary, args: [stdioFixture] };
  const opened: { client?: object } = {};
  const telemetry = createTelemetry({
    tracer: sdk.tracer,
    meter: sdk.meter,
    server: { target, client: () => opened.client },
    ...options,
  });
  const person = scriptedPerson((request: Request) => accept(request, { name: 'Ada' }));
  const open = await openClient(
    kind,
    transport,
    target,
    { waitFor: person.waitFor, extensions: [telemetry] },
    path,
  );
  opened.client = open.client;
  try {
    await body(open.bridge, sdk);
  } finally {
    await open.close();
    await sdk.shutdown();
  }
}

/** The one finished span named `name`. */
const spanNamed = async (sdk: TestSdk, name: string) => {
  await vi.waitFor(() => expect(sdk.spans().filter((span) => span.name === name)).toHaveLength(1));
  return sdk.spans().find((span) => span.name === name)!;
};

/** The data points of `mcp.client.operation.duration`: attributes and count. */
const operations = async (sdk: TestSdk) =>
  ((await sdk.collect()).get('mcp.client.operation.duration')?.dataPoints ?? []).map((point) => ({
    attributes: point.attributes,
    count: (point.value as { count: number }).count,
  }));

const cases: Array<[BridgePath, ClientKind, TransportKind, string | undefined]> = [
  ['attachWaitFor', 'v2-modern', 'http', '2026-07-28'],
  ['attachWaitFor', 'v2-legacy', 'http', '2025-11-25'],
  ['attachWaitFor', 'v1', 'http', '2025-11-25'],
  ['connect', 'v2-legacy', 'http', '2025-11-25'],
  ['attachWaitFor', 'v2-legacy', 'stdio', '2025-11-25'],
  // v1 keeps the negotiated revision on its HTTP transport only.
  ['attachWaitFor', 'v1', 'stdio', undefined],
];

describe.each(cases)('%s, %s client over %s', (path, kind, transport, version) => {
  const open = [path, kind, transport] as [BridgePath, ClientKind, TransportKind];

  it('records the server, the transport and the negotiated revision, on the span and the metric', async () => {
    await withTelemetry(open, {}, async (bridge, sdk) => {
      await bridge.callTool({ name: 'ask_form' });
      const span = await spanNamed(sdk, 'tools/call ask_form');
      const port = Number(new URL(server.url).port);
      const expected =
        transport === 'http'
          ? {
              'server.address': '127.0.0.1',
              'server.port': port,
              'network.transport': 'tcp',
              'network.protocol.name': 'http',
            }
          : { 'network.transport': 'pipe' };
      expect(span.attributes).toMatchObject(expected);
      expect(span.attributes['mcp.protocol.version']).toBe(version);
      expect(span.attributes).not.toHaveProperty('error.type');
      expect(await operations(sdk)).toEqual([
        {
          attributes: {
            'mcp.method.name': 'tools/call',
            'gen_ai.tool.name': 'ask_form',
            'gen_ai.operation.name': 'execute_tool',
            ...(version === undefined ? {} : { 'mcp.protocol.version': version }),
            ...expected,
          },
          count: 1,
        },
      ]);
    });
  });

  it('keeps a resource URI as given and records a JSON-RPC error by its code', async () => {
    await withTelemetry(open, {}, async (bridge, sdk) => {
      const error = await bridge
        .readResource({ uri: 'file:///doc.txt?token=secret#part' })
        .catch((caught: unknown) => caught);
      expect(BridgeError.isInstance(error) && error.code).toBe('server_error');
      const code = String((error as BridgeError).rpc!.code);
      const span = await spanNamed(sdk, 'resources/read');
      expect(span.attributes).toMatchObject({
        'mcp.resource.uri': 'file:///doc.txt',
        'error.type': code,
        'rpc.response.status_code': code,
      });
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      const [operation] = await operations(sdk);
      expect(operation!.attributes).toMatchObject({
        'mcp.method.name': 'resources/read',
        'error.type': code,
        'rpc.response.status_code': code,
      });
      // The URI is opt-in on the metric (cardinality): left out.
      expect(operation!.attributes).not.toHaveProperty('mcp.resource.uri');
    });
  });

  it('records a tool result with isError as tool_error', async () => {
    await withTelemetry(open, {}, async (bridge, sdk) => {
      const result = await bridge.callTool({ name: 'slow', arguments: { ms: -1 } });
      expect(result['isError']).toBe(true);
      const span = await spanNamed(sdk, 'tools/call slow');
      expect(span.attributes['error.type']).toBe('tool_error');
      expect(span.attributes).not.toHaveProperty('rpc.response.status_code');
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect((await operations(sdk))[0]!.attributes['error.type']).toBe('tool_error');
    });
  });
});

describe('trace context through the configured propagator', () => {
  afterEach(() => {
    propagation.disable();
    context.disable();
  });

  const tracestate = 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE';
  const baggage = 'userId=alice';

  /** The `_meta` of every tools/call the fixture received that names the span as its parent. */
  const sentBy = (span: ReadableSpan) => {
    const { traceId, spanId } = span.spanContext();
    const traceparent = `00-${traceId}-${spanId}-01`;
    return server.received
      .map((entry) => entry.message)
      .filter((message) => message.method === 'tools/call')
      .map((message) => message.params?.['_meta'] as Record<string, unknown> | undefined)
      .filter((meta) => meta?.['traceparent'] === traceparent)
      .map((meta) => ({ ...meta, traceparent: 'the call span' }));
  };

  it.each([
    ['the global propagator', 'global'],
    ['the propagator option', 'option'],
  ] as const)(
    'sends the active tracestate and baggage with the traceparent (%s)',
    async (_name, where) => {
      context.setGlobalContextManager(stackContextManager());
      const propagator = createTestPropagator();
      if (where === 'global') propagation.setGlobalPropagator(propagator);
      // The context of an incoming request: a remote parent with tracestate, and baggage.
      const incoming = propagation.setBaggage(
        trace.setSpanContext(ROOT_CONTEXT, {
          traceId: 'c'.repeat(32),
          spanId: 'd'.repeat(16),
          traceFlags: 1,
          isRemote: true,
          traceState: createTraceState(tracestate),
        }),
        propagation.createBaggage({ userId: { value: 'alice' } }),
      );
      const options = where === 'option' ? { propagator } : {};
      await withTelemetry(['attachWaitFor', 'v2-legacy', 'http'], options, async (bridge, sdk) => {
        await context.with(incoming, () => bridge.callTool({ name: 'ask_form' }));
        const span = await spanNamed(sdk, 'tools/call ask_form');
        expect(span.parentSpanContext?.spanId).toBe('d'.repeat(16));
        expect(sentBy(span)).toEqual([{ traceparent: 'the call span', tracestate, baggage }]);
      });
    },
  );

  it('continues the trace a call carries, with its tracestate and baggage', async () => {
    propagation.setGlobalPropagator(createTestPropagator());
    const carried = {
      traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`,
      tracestate,
      baggage,
    };
    await withTelemetry(['attachWaitFor', 'v2-legacy', 'http'], {}, async (bridge, sdk) => {
      // As a resumed suspension does: the propagator's keys are written anew, from the context.
      const params = { name: 'ask_form', _meta: { ...carried } };
      await bridge.callTool(params);
      const span = await spanNamed(sdk, 'tools/call ask_form');
      expect(span.spanContext().traceId).toBe('a'.repeat(32));
      expect(span.parentSpanContext?.spanId).toBe('b'.repeat(16));
      expect(sentBy(span)).toEqual([{ traceparent: 'the call span', tracestate, baggage }]);
      // The caller's object is left as it was.
      expect(params._meta).toEqual(carried);
    });
  });
});

describe('question URLs', () => {
  it.each([
    ['file:///doc.txt', 'file:///doc.txt'],
    ['https://user:secret@Example.com:8443/a/../b?token=1#x', 'https://Example.com:8443/a/../b'],
    ['mailto:ada@example.com?subject=hi', 'mailto:ada@example.com'],
    ['not a url', undefined],
  ])('records %s as %s', async (url, recorded) => {
    const sdk = createTestSdk();
    const waitFor = instrumentWaitFor(async (request) => accept(request), { tracer: sdk.tracer });
    await waitFor({ id: 'u-1', kind: 'authorization', prompt: 'Sign in', url });
    await vi.waitFor(() => expect(sdk.spans()).toHaveLength(1));
    expect(sdk.spans()[0]!.attributes['waitfor.question.url']).toBe(recorded);
    await sdk.shutdown();
  });
});
