/**
 * Benchmark 2 — legacy-era handler overhead. On a 2025-era connection the v2 server's legacy shim
 * pushes `elicitation/create`; one client answers through the bridge's handler (`attachWaitFor`,
 * a waitFor that accepts at once), two others (the second is the A/A control) through a bare SDK
 * handler that returns the same ElicitResult. All call the tool with the SDK's plain
 * `client.callTool`, so only the handler differs.
 */
import { compareWithBareHandler } from './handlerComparison';
import { comparisonMethod } from './pairedSampling';
import type { BenchResult } from './result';

/** Run benchmark 2. */
export function benchLegacyHandler(): Promise<BenchResult> {
  return compareWithBareHandler({
    era: 'legacy',
    callThroughBridge: (bridge) => bridge.client.callTool({ name: 'confirm' }),
    labels: {
      a: 'bridge handler (attachWaitFor)',
      b: 'bare SDK handler',
      ratio: 'bridge ÷ bare handler',
      budget: 1.1,
    },
    result: {
      id: 'legacy-handler',
      title: '2. Legacy-era handler overhead',
      method:
        comparisonMethod(
          'sequential client.callTool, each answering one pushed elicitation/create',
        ) + ' V2 client and v2 server (legacy shim) over InMemoryTransport, 2025-era handshake.',
    },
  });
}
