/**
 * Benchmark 1 — modern-era loop overhead. The same tool (one `input_required` round) is called
 * through the bridge's own loop (the bridge's `callTool`, a waitFor that accepts at
 * once) and through the v2 SDK's automatic loop (`client.callTool` with an `elicitation/create`
 * handler that accepts at once) — the latter on two identical connections, the second being the
 * A/A control — each on its own in-memory connection, interleaved call by call.
 */
import { compareWithBareHandler } from './handlerComparison';
import { comparisonMethod } from './pairedSampling';
import type { BenchResult } from './result';

/** Run benchmark 1. */
export function benchModernLoop(): Promise<BenchResult> {
  return compareWithBareHandler({
    era: 'modern',
    callThroughBridge: (connection) => connection.bridge!.callTool({ name: 'confirm' }),
    labels: {
      a: 'bridge callTool',
      b: 'SDK automatic loop (client.callTool)',
      ratio: 'bridge ÷ SDK loop',
      budget: 1.05,
    },
    result: {
      id: 'modern-loop',
      title: '1. Modern-era loop overhead',
      method:
        comparisonMethod('sequential tools/call, one input_required round each') +
        ` V2 client and v2 server over the SDK's InMemoryTransport, protocol 2026-07-28.`,
    },
  });
}
