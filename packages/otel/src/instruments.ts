/**
 * The metric instruments, created once per Meter. A Meter of the API's no-op provider yields none,
 * so a host without an OpenTelemetry SDK records nothing and pays for nothing.
 */
import {
  createNoopMeter,
  metrics,
  type Counter,
  type Histogram,
  type Meter,
  type UpDownCounter,
} from '@opentelemetry/api';

/** The instrumentation scope name of this package's tracer and meter. */
export const SCOPE = '@waitfor/otel';

/** Every instrument this package records to. */
export interface Instruments {
  /** `waitfor.questions.open`: questions handed to a person and not yet answered. */
  open: UpDownCounter;
  /** `waitfor.question.duration`: time a person took to answer, in seconds. */
  duration: Histogram;
  /** `waitfor.question.outcomes`: answered questions by outcome. */
  outcomes: Counter;
  /** `waitfor.question.reasks`: invalid form answers asked again. */
  reasks: Counter;
  /** `waitfor.call.rounds`: input_required rounds per modern-era call that asked someone. */
  rounds: Histogram;
  /** `mcp.client.operation.duration`: the conventions' call duration, in seconds. */
  operation: Histogram;
}

// The API's no-op Meter class: a global Meter of this class means no SDK is registered.
const NoopMeter = createNoopMeter().constructor;
const created = new WeakMap<Meter, Instruments>();

function create(meter: Meter): Instruments {
  return {
    open: meter.createUpDownCounter('waitfor.questions.open', {
      description: 'Open questions',
      unit: '{question}',
    }),
    duration: meter.createHistogram('waitfor.question.duration', {
      description: 'Time to answer',
      unit: 's',
      advice: {
        explicitBucketBoundaries: [1, 5, 15, 60, 300, 900, 3600, 14400, 86400],
      },
    }),
    outcomes: meter.createCounter('waitfor.question.outcomes', {
      description: 'Questions by outcome',
      unit: '{question}',
    }),
    reasks: meter.createCounter('waitfor.question.reasks', {
      description: 'Re-asked questions',
      unit: '{question}',
    }),
    rounds: meter.createHistogram('waitfor.call.rounds', {
      description: 'Rounds per call',
      unit: '{round}',
      advice: { explicitBucketBoundaries: [1, 2, 3, 5, 10] },
    }),
    operation: meter.createHistogram('mcp.client.operation.duration', {
      description: 'MCP call duration',
      unit: 's',
      advice: {
        explicitBucketBoundaries: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      },
    }),
  };
}

/** The instruments of `meter` (else the global one); undefined when it is the API's no-op. */
export function instrumentsOf(meter: Meter | undefined): Instruments | undefined {
  const chosen = meter ?? metrics.getMeter(SCOPE);
  if (chosen instanceof NoopMeter) return undefined;
  let instruments = created.get(chosen);
  if (instruments === undefined) {
    instruments = create(chosen);
    created.set(chosen, instruments);
  }
  return instruments;
}
