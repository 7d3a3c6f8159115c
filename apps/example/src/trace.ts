import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { createTelemetry } from '@waitfor/otel';
import type { Telemetry } from '@waitfor/otel';

/** The console trace of the example: the telemetry to wire in, and a way to flush and stop it. */
export interface ConsoleTrace {
  /** The bridge extension and waitFor instrumentation of @waitfor/otel. */
  telemetry: Telemetry;
  /** Prints what is still buffered and unregisters the SDK. */
  close(): Promise<void>;
}

/**
 * Registers an OpenTelemetry SDK whose spans are printed to the console as each one ends: a span
 * per bridge call and one per question it asked. @waitfor/otel records who asked, how and how
 * long, never an answer, a prompt or a URL's query.
 */
export function startConsoleTrace(): ConsoleTrace {
  // A simple processor prints each span as it ends, so a person sees a call's spans right after it.
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())],
  });
  trace.setGlobalTracerProvider(provider);
  return {
    telemetry: createTelemetry(),
    async close() {
      await provider.shutdown();
      trace.disable();
    },
  };
}
