/**
 * Benchmark — the cost of @waitfor/otel. The same modern-era tool (one `input_required` round, one
 * question) is called through the bridge with the telemetry extension and an instrumented waitFor,
 * and through the bridge without them (twice: the A/A control), interleaved call by call. First
 * with no OpenTelemetry SDK registered (the telemetry must cost nothing measurable), then with a
 * real SDK exporting to memory (the cost of recording one call and its question).
 */
import { accept, type WaitFor } from '@waitfor/core';
import { attachWaitFor, elicitationCapabilities } from '@waitfor/mcp-bridge';
import { createTelemetry, type Telemetry } from '@waitfor/otel';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { connectInMemory, type BenchConnection } from './benchServer';
import { ms } from './format';
import { confirmCalls } from './handlerComparison';
import { pairedFigures, pairedRatios } from './paired';
import { comparisonMethod, PAIRED_SAMPLING } from './pairedSampling';
import type { BenchResult } from './result';
import { sampleCalls } from './sampleCalls';

const acceptAtOnce: WaitFor = async (request) => accept(request, { confirm: true });

/** Runs of the budgeted comparison (no SDK registered). */
const IDLE_RUNS = 2 * PAIRED_SAMPLING.runs;

/** An in-memory exporter that empties itself as it fills (the run records about 50,000 spans). */
class BoundedExporter extends InMemorySpanExporter {
  override export(...args: Parameters<InMemorySpanExporter['export']>): void {
    if (this.getFinishedSpans().length >= 1_000) this.reset();
    super.export(...args);
  }
}

/** A modern-era connection with the bridge attached, with `telemetry` when given. */
const connectBridge = (telemetry?: Telemetry): Promise<BenchConnection> =>
  connectInMemory(
    'modern',
    { capabilities: elicitationCapabilities({ waitFor: acceptAtOnce }) as never },
    (client) =>
      attachWaitFor(
        client,
        telemetry === undefined
          ? { waitFor: acceptAtOnce }
          : { waitFor: telemetry.instrument(acceptAtOnce), extensions: [telemetry] },
      ),
  );

/** Sample `telemetry`'s connection against two plain bridge connections. */
async function compare(telemetry: Telemetry, runs: number) {
  const withTelemetry = await connectBridge(telemetry);
  const plain = await connectBridge();
  const control = await connectBridge();
  const call = (connection: BenchConnection) => () =>
    confirmCalls(1, () => connection.bridge!.callTool({ name: 'confirm' }));
  try {
    const samples = await sampleCalls({
      ...PAIRED_SAMPLING,
      runs,
      variants: {
        a: call(withTelemetry),
        b: call(plain),
        control: call(control),
      },
    });
    return pairedRatios(samples);
  } finally {
    await withTelemetry.close();
    await plain.close();
    await control.close();
  }
}

/** Run the benchmark. */
export async function benchOtelOverhead(): Promise<BenchResult> {
  // No SDK: the global tracer and meter providers are the API's no-ops.
  // Twice the usual runs: the difference this budget must resolve is about 1%, the size of one
  // run's spread, so the standard error needs the extra samples.
  const idle = await compare(createTelemetry(), IDLE_RUNS);
  const { figures, notes } = pairedFigures(idle, {
    a: 'bridge + otel, no SDK',
    b: 'bridge alone',
    ratio: 'bridge + otel (no SDK) ÷ bridge alone',
    budget: 1.01,
  });

  // A real SDK: spans to an in-memory exporter (emptied as it fills), metrics aggregated in memory.
  const exporter = new BoundedExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const meterProvider = new MeterProvider();
  const telemetry = createTelemetry({
    tracer: tracerProvider.getTracer('bench'),
    meter: meterProvider.getMeter('bench'),
  });
  const recording = await compare(telemetry, PAIRED_SAMPLING.runs / 2);
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  const perQuestion = recording.costs.a.cpu - recording.costs.b.cpu;
  figures.push(
    {
      name: 'with an SDK (in-memory exporter): CPU per call and its question',
      value: recording.costs.a.cpu,
      unit: 'ms',
      runs: recording.perRun.length,
      detail: `bridge alone ${ms(recording.costs.b.cpu)}; A/A control ${ms(recording.costs.control.cpu)}`,
    },
    {
      name: 'with an SDK: added CPU per question (one call span + one question span + metrics)',
      value: perQuestion,
      unit: 'ms',
      runs: recording.perRun.length,
      detail: `ratio ${recording.cpu.toFixed(3)}×, control ${recording.controlCpu.toFixed(3)}×`,
    },
  );
  return {
    id: 'otel-overhead',
    title: 'OpenTelemetry overhead (@waitfor/otel)',
    method:
      comparisonMethod(
        'sequential tools/call, one input_required round and one question each',
        IDLE_RUNS,
      ) +
      ` V2 client and v2 server over the SDK's InMemoryTransport, protocol 2026-07-28. Variant a ` +
      `has the telemetry extension and an instrumented waitFor; first with no OpenTelemetry SDK ` +
      `registered (budgeted), then with a BasicTracerProvider + SimpleSpanProcessor + ` +
      `InMemorySpanExporter and a MeterProvider (${PAIRED_SAMPLING.runs / 2} runs; reported, not ` +
      `budgeted).`,
    figures,
    notes,
  };
}
