/** Every benchmark by id, in the order the runner runs and reports them. */
import { benchBundleSize } from './bundleSize';
import { benchHttpInbox } from './httpInbox';
import { benchInboxScale } from './inboxScale';
import { benchLegacyHandler } from './legacyHandler';
import { benchModernLoop } from './modernLoop';
import { benchOtelOverhead } from './otelOverhead';
import { benchRoundConcurrency } from './roundConcurrency';
import { benchSchemaScale } from './schemaScale';
import { benchStoreFleet } from './storeFleet';
import { benchTasksExtTasks } from './tasksExtTasks';
import type { BenchResult } from './result';

/**
 * Benchmark ids with their functions; React is loaded lazily (it installs DOM globals), and so is
 * the store queue (it reads the store's SQL from its sources, which must not break the others).
 */
export const benches: Record<string, () => Promise<BenchResult>> = {
  'modern-loop': benchModernLoop,
  'legacy-handler': benchLegacyHandler,
  'round-concurrency': benchRoundConcurrency,
  'inbox-scale': benchInboxScale,
  react: async () => (await import('./reactList')).benchReactList(),
  'bundle-size': benchBundleSize,
  'schema-scale': benchSchemaScale,
  'otel-overhead': benchOtelOverhead,
  'http-inbox': benchHttpInbox,
  'store-fleet': benchStoreFleet,
  'store-queue': async () => (await import('./storeQueue')).benchStoreQueue(),
  'tasks-ext-tasks': benchTasksExtTasks,
  'gateway-latency': async () => (await import('./gatewayLatency')).benchGatewayLatency(),
};
