/**
 * The harness of benchmark 1 (and the pieces benchmark 2 and the otel benchmark take from it): one
 * connection answers `confirm` through the bridge (a waitFor that accepts at once), two identical
 * ones through a bare SDK `elicitation/create` handler (the second is the A/A control); calls are
 * sampled interleaved and compared as CPU ratios.
 */
import { accept, type WaitFor } from '@waitfor/core';
import { attachWaitFor, elicitationCapabilities } from '@waitfor/mcp-bridge';
import { connectInMemory, textOf, type BenchConnection, type Era } from './benchServer';
import { explainExtraCost, pairedFigures, pairedRatios, type PairedLabels } from './paired';
import { PAIRED_SAMPLING, PROFILED_CALLS } from './pairedSampling';
import type { BenchResult } from './result';
import { sampleCalls } from './sampleCalls';

const acceptAtOnce: WaitFor = async (request) => accept(request, { confirm: true });

/** `count` sequential calls of `confirm` through `call`, each result checked. */
export async function confirmCalls(count: number, call: () => Promise<unknown>): Promise<void> {
  for (let index = 0; index < count; index++) {
    const text = textOf(await call());
    if (text !== 'yes') throw new Error(`Unexpected tool result ${JSON.stringify(text)}`);
  }
}

/** A connection of `era` whose client answers elicitations with a bare SDK handler. */
export const connectBare = (era: Era) =>
  connectInMemory(era, { capabilities: { elicitation: { form: {}, url: {} } } }, (client) =>
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { confirm: true },
    })),
  );

/** What differs between the benchmarks built on `compareWithBareHandler`. */
export interface HandlerComparison {
  era: Era;
  /** One `confirm` call on the connection with the bridge attached. */
  callThroughBridge(bridge: BenchConnection): Promise<unknown>;
  labels: PairedLabels;
  result: Pick<BenchResult, 'id' | 'title' | 'method'>;
}

/** Sample the bridge against the bare handler (and the bare handler against itself) in `era`. */
export async function compareWithBareHandler(comparison: HandlerComparison): Promise<BenchResult> {
  const bridge = await connectInMemory(
    comparison.era,
    { capabilities: elicitationCapabilities({ waitFor: acceptAtOnce }) as never },
    (client) => attachWaitFor(client, { waitFor: acceptAtOnce }),
  );
  // The same capabilities the bridge declares, so the server sees identical clients.
  const bare = await connectBare(comparison.era);
  const control = await connectBare(comparison.era);
  try {
    const variants = {
      a: (count: number) => confirmCalls(count, () => comparison.callThroughBridge(bridge)),
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
    const { figures, overBudget, notes } = pairedFigures(ratios, comparison.labels);
    if (overBudget !== undefined) {
      notes.push(overBudget, await explainExtraCost(PROFILED_CALLS, variants, ratios.costs));
    }
    return { ...comparison.result, figures, notes };
  } finally {
    await bridge.close();
    await bare.close();
    await control.close();
  }
}
