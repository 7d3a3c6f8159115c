/**
 * Test harness: a real OpenTelemetry SDK — BasicTracerProvider with an InMemorySpanExporter behind
 * a SimpleSpanProcessor, a MeterProvider with a MetricReader the test collects from, and the SDK's
 * W3C trace context and baggage propagators.
 */
import { createRequire } from 'node:module';
import {
  ROOT_CONTEXT,
  type Attributes,
  type Context,
  type ContextManager,
  type TextMapPropagator,
} from '@opentelemetry/api';
import {
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** A reader that exports nothing on its own: the test collects when it wants to look. */
class CollectingReader extends MetricReader {
  protected override onForceFlush() {
    return Promise.resolve();
  }
  protected override onShutdown() {
    return Promise.resolve();
  }
}

/** One in-memory SDK: a tracer, a meter, and ways to read what they recorded. */
export function createTestSdk() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const tracer = tracerProvider.getTracer('test');
  const meter = meterProvider.getMeter('test');

  /** Every metric collected now, by name. */
  const collect = async (): Promise<Map<string, MetricData>> => {
    const { resourceMetrics } = await reader.collect();
    const byName = new Map<string, MetricData>();
    for (const scope of resourceMetrics.scopeMetrics)
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
    return byName;
  };

  return {
    tracerProvider,
    meterProvider,
    tracer,
    meter,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    collect,
    /** The sum of a counter's data points whose attributes include `match`. */
    async sum(name: string, match: Attributes = {}): Promise<number> {
      const metric = (await collect()).get(name);
      return (metric?.dataPoints ?? [])
        .filter((point) => matches(point.attributes, match))
        .reduce((total, point) => total + (point.value as number), 0);
    },
    /** The count and sum of a histogram's data points whose attributes include `match`. */
    async histogram(name: string, match: Attributes = {}): Promise<{ count: number; sum: number }> {
      const metric = (await collect()).get(name);
      const points = ((metric?.dataPoints ?? []) as Array<DataPoint<Histogram>>).filter((point) =>
        matches(point.attributes, match),
      );
      return {
        count: points.reduce((total, point) => total + point.value.count, 0),
        sum: points.reduce((total, point) => total + (point.value.sum ?? 0), 0),
      };
    },
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

const matches = (attributes: Attributes, match: Attributes) =>
  Object.entries(match).every(([key, value]) => attributes[key] === value);

/** Every string an exported span or metric carries: names, attributes, events, links, status. */
export async function everyRecordedString(sdk: ReturnType<typeof createTestSdk>): Promise<string> {
  const parts: unknown[] = [];
  for (const span of sdk.spans()) {
    parts.push(span.name, span.attributes, span.status, span.resource.attributes);
    for (const event of span.events) parts.push(event.name, event.attributes);
    for (const link of span.links) parts.push(link.attributes);
  }
  for (const metric of (await sdk.collect()).values()) {
    parts.push(metric.descriptor);
    for (const point of metric.dataPoints) parts.push(point.attributes);
  }
  return JSON.stringify(parts);
}

/** The SDK's core package, as the trace SDK installed here depends on it (the same version). */
const core = createRequire(createRequire(import.meta.url).resolve('@opentelemetry/sdk-trace-base'))(
  '@opentelemetry/core',
) as {
  CompositePropagator: new (config: { propagators: TextMapPropagator[] }) => TextMapPropagator;
  W3CTraceContextPropagator: new () => TextMapPropagator;
  W3CBaggagePropagator: new () => TextMapPropagator;
};

/** The W3C composite propagator a host configures: trace context (with tracestate) and baggage. */
export function createTestPropagator(): TextMapPropagator {
  return new core.CompositePropagator({
    propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
  });
}

/**
 * A synchronous context manager: enough for hooks that read the active context synchronously (a
 * bridge call enters its extensions before its first await).
 */
export function stackContextManager(): ContextManager {
  const stack: Context[] = [];
  const manager: ContextManager = {
    active: () => stack.at(-1) ?? ROOT_CONTEXT,
    with(active, run, thisArg, ...args) {
      stack.push(active);
      try {
        return run.call(thisArg, ...args);
      } finally {
        stack.pop();
      }
    },
    bind: (_context, target) => target,
    enable: () => manager,
    disable: () => manager,
  };
  return manager;
}
