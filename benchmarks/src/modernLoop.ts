/**
 * Benchmark 1 — modern-era loop overhead. The same tool (one `input_required` round) is called
 * through the bridge's own loop (`callTool` from @waitfor/mcp-bridge, a waitFor that accepts at
 * once) and through the v2 SDK's automatic loop (`client.callTool` with an `elicitation/create`
 * handler that accepts at once) — the latter on two identical connections, the second being the
 * A/A control — each on its own in-memory connection, interleaved call by call.
 */
import { accept, type WaitFor } from '@waitfor/core';
import { attachWaitFor, callTool, elicitationCapabilities } from '@waitfor/mcp-bridge';
import { connectInMemory, textOf, type BenchConnection } from './benchServer';
import { explainExtraCost, pairedFigures, pairedRatios } from './paired';
import { sampleCalls } from './sampleCalls';
import type { BenchResult } from './result';
import { comparisonMethod, PAIRED_SAMPLING, PROFILED_CALLS } from './pairedSampling';

const acceptAtOnce: WaitFor = async (request) => accept(request, { confirm: true });

/** `count` sequential calls of `confirm` through `call`, each result checked. */
export async function confirmCalls(count: number, call: () => Promise<unknown>): Promise<void> {
  for (let index = 0; index < count; index++) {
    const text = textOf(await call());
    if (text !== 'yes') throw new Error(`Unexpected tool result ${JSON.stringify(text)}`);
  }
}

/** A modern-era connection whose client answers elicitations with a bare SDK handler. */
const connectSdk = () =>
  connectInMemory('modern', { capabilities: { elicitation: { form: {}, url: {} } } }, (client) =>
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept',
      content: { confirm: true },
    })),
  );

/** Run benchmark 1. */
export async function benchModernLoop(): Promise<BenchResult> {
  const bridge: BenchConnection = await connectInMemory(
    'modern',
    { capabilities: elicitationCapabilities({ waitFor: acceptAtOnce }) as never },
    (client) => void attachWaitFor(client, { waitFor: acceptAtOnce }),
  );
  // The same capabilities the bridge declares, so the server sees identical clients.
  const sdk = await connectSdk();
  const control = await connectSdk();
  try {
    const variants = {
      a: (count: number) => confirmCalls(count, () => callTool(bridge.client, { name: 'confirm' })),
      b: (count: number) => confirmCalls(count, () => sdk.client.callTool({ name: 'confirm' })),
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
      a: 'bridge callTool',
      b: 'SDK automatic loop (client.callTool)',
      ratio: 'bridge ÷ SDK loop',
      budget: 1.1,
    });
    if (overBudget !== undefined) {
      notes.push(overBudget, await explainExtraCost(PROFILED_CALLS, variants, ratios.costs));
    }
    return {
      id: 'modern-loop',
      title: '1. Modern-era loop overhead',
      method:
        comparisonMethod('sequential tools/call, one input_required round each') +
        ` V2 client and v2 server over the SDK's InMemoryTransport, protocol 2026-07-28.`,
      figures,
      notes,
    };
  } finally {
    await bridge.close();
    await sdk.close();
    await control.close();
  }
}
