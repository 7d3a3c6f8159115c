/**
 * Test harness: a real OpenTelemetry SDK — BasicTracerProvider with an InMemorySpanExporter behind
 * a SimpleSpanProcessor, and a MeterProvider with a MetricReader the test collects from.
 */
import type { Attributes } from '@opentelemetry/api';
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
