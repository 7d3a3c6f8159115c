export { createTelemetry, instrumentWaitFor } from './telemetry';
export type { Telemetry, TelemetryOptions } from './telemetry';
export type { Outcome } from './attributes';
export type { TelemetryServer } from './server';
