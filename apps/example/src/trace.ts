import type { WaitFor } from '@waitfor/core';
import type { BridgeExtension } from '@waitfor/mcp-bridge';
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
export async function startConsoleTrace(): Promise<ConsoleTrace> {
  // Loaded only here: a host that does not trace loads no OpenTelemetry SDK at all.
  const [{ trace }, sdk, { createTelemetry }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@waitfor/otel'),
  ]);
  // A simple processor prints each span as it ends, so a person sees a call's spans right after it.
  const provider = new sdk.BasicTracerProvider({
    spanProcessors: [new sdk.SimpleSpanProcessor(new sdk.ConsoleSpanExporter())],
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

/**
 * How a host of the example (the terminal, the hosted mode) wires the console trace in — or leaves
 * it out — in one place: its waitFor and the extensions of every bridge it connects.
 */
export interface HostTrace {
  /** The host's waitFor, instrumented when tracing: every question it answers becomes a span. */
  instrument(waitFor: WaitFor): WaitFor;
  /** A bridge's extensions: these, and the telemetry (a span per call) when tracing. */
  extensions(...extensions: BridgeExtension[]): BridgeExtension[];
  /** Prints what is still buffered and unregisters the SDK; nothing when not tracing. */
  close(): Promise<void>;
}

const untraced: HostTrace = {
  instrument: (waitFor) => waitFor,
  extensions: (...extensions) => extensions,
  close: async () => {},
};

/** The console trace when `requested` (`--trace`, WAITFOR_TRACE=1), else a host trace that does nothing. */
export async function startHostTrace(requested: boolean): Promise<HostTrace> {
  if (!requested) return untraced;
  const { telemetry, close } = await startConsoleTrace();
  return {
    instrument: (waitFor) => telemetry.instrument(waitFor),
    extensions: (...extensions) => [...extensions, telemetry],
    close,
  };
}
