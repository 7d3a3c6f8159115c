/**
 * Benchmark 2 — legacy-era handler overhead. On a 2025-era connection the v2 server's legacy shim
 * pushes `elicitation/create`; one client answers through the bridge's handler (`attachWaitFor`,
 * a waitFor that accepts at once), two others (the second is the A/A control) through a bare SDK
 * handler that returns the same ElicitResult. All call the tool with the SDK's plain
 * `client.callTool`, so only the handler differs.
 */
import { accept, type WaitFor } from '@waitfor/core';
import { attachWaitFor, elicitationCapabilities } from '@waitfor/mcp-bridge';
import { connectInMemory } from './benchServer';
import { confirmCalls } from './modernLoop';
import { explainExtraCost, pairedFigures, pairedRatios } from './paired';
import { comparisonMethod, PAIRED_SAMPLING, PROFILED_CALLS } from './pairedSampling';
import { sampleCalls } from './sampleCalls';
import type { BenchResult } from './result';

const acceptAtOnce: WaitFor = async (request) => accept(request, { confirm: true });

/** A legacy-era connection whose client answers the pushes with a bare SDK handler. */
const connectBare = () =>
  connectInMemory('legacy', { capabilities: { elicitation: { form: {}, url: {} } } }, (client) =>
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { confirm: true },
    })),
  );

/** Run benchmark 2. */
export async function benchLegacyHandler(): Promise<BenchResult> {
  const bridge = await connectInMemory(
    'legacy',
    { capabilities: elicitationCapabilities({ waitFor: acceptAtOnce }) as never },
    (client) => void attachWaitFor(client, { waitFor: acceptAtOnce }),
  );
  const bare = await connectBare();
  const control = await connectBare();
  try {
    const variants = {
      a: (count: number) => confirmCalls(count, () => bridge.client.callTool({ name: 'confirm' })),
      b: (count: number) => confirmCalls(count, () => bare.client.callTool({ name: 'confirm' })),
      control: (count: number) =>
        confirmCalls(count, () => control.client.callTool({ name: 'confirm' })),
    };
    const samples = await sampleCalls({
      ...PAIRED_SAMPLING,
      variants: {
        a: () => variants.a(1),
        b: () => variants.b(1),
        control: () => variants.control(1),
      },
    });
    const ratios = pairedRatios(samples);
    const { figures, overBudget, notes } = pairedFigures(ratios, {
      a: 'bridge handler (attachWaitFor)',
      b: 'bare SDK handler',
      ratio: 'bridge ÷ bare handler',
      budget: 1.05,
    });
    if (overBudget !== undefined) {
      notes.push(overBudget, await explainExtraCost(PROFILED_CALLS, variants, ratios.costs));
    }
    return {
      id: 'legacy-handler',
      title: '2. Legacy-era handler overhead',
      method:
        comparisonMethod(
          'sequential client.callTool, each answering one pushed elicitation/create',
        ) + ' V2 client and v2 server (legacy shim) over InMemoryTransport, 2025-era handshake.',
      figures,
      notes,
    };
  } finally {
    await bridge.close();
    await bare.close();
    await control.close();
  }
}
