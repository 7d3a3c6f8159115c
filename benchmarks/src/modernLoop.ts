/**
 * Benchmark 1 — modern-era loop overhead. The same tool (one `input_required` round) is called
 * through the bridge's own loop (`callTool` from @waitfor/mcp-bridge, a waitFor that accepts at
 * once) and through the v2 SDK's automatic loop (`client.callTool` with an `elicitation/create`
 * handler that accepts at once), each on its own in-memory connection, interleaved block by block.
 */
import { accept, type WaitFor } from '@waitfor/core';
import { attachWaitFor, callTool, elicitationCapabilities } from '@waitfor/mcp-bridge';
import { connectInMemory, textOf, type BenchConnection } from './benchServer';
import { explainExtraCost, pairedFigures } from './paired';
import { interleave } from './stats';
import type { BenchResult } from './result';

/** Runs; blocks per variant and run; calls per block: 10 × 250 × 2 = 5,000 calls per variant. */
export const RUNS = 10;
export const BLOCKS_PER_RUN = 250;
export const CALLS_PER_BLOCK = 2;
/** Calls per variant profiled when the budget is missed. */
export const PROFILED_CALLS = 3_000;

const acceptAtOnce: WaitFor = async (request) => accept(request, { confirm: true });

/** `count` sequential calls of `confirm` through `call`, each result checked. */
export async function confirmCalls(count: number, call: () => Promise<unknown>): Promise<void> {
  for (let index = 0; index < count; index++) {
    const text = textOf(await call());
    if (text !== 'yes') throw new Error(`Unexpected tool result ${JSON.stringify(text)}`);
  }
}

/** Run benchmark 1. */
export async function benchModernLoop(): Promise<BenchResult> {
  const bridge: BenchConnection = await connectInMemory(
    'modern',
    { capabilities: elicitationCapabilities({ waitFor: acceptAtOnce }) as never },
    (client) => void attachWaitFor(client, { waitFor: acceptAtOnce }),
  );
  // The same capabilities the bridge declares, so the server sees two identical clients.
  const sdk: BenchConnection = await connectInMemory(
    'modern',
    { capabilities: { elicitation: { form: {}, url: {} } } },
    (client) =>
      client.setRequestHandler('elicitation/create', async () => ({
        action: 'accept',
        content: { confirm: true },
      })),
  );
  try {
    const viaA = (count: number) =>
      confirmCalls(count, () => callTool(bridge.client, { name: 'confirm' }));
    const viaB = (count: number) =>
      confirmCalls(count, () => sdk.client.callTool({ name: 'confirm' }));
    const costs = await interleave({
      runs: RUNS,
      blocksPerRun: BLOCKS_PER_RUN,
      a: () => viaA(CALLS_PER_BLOCK),
      b: () => viaB(CALLS_PER_BLOCK),
    });
    const { figures, overBudget } = pairedFigures(costs, BLOCKS_PER_RUN * CALLS_PER_BLOCK, {
      a: 'bridge callTool',
      b: 'SDK automatic loop (client.callTool)',
      ratio: 'bridge ÷ SDK loop',
      budget: 1.1,
    });
    const notes: string[] = [];
    if (overBudget !== undefined) {
      notes.push(overBudget, await explainExtraCost(PROFILED_CALLS, viaA, viaB));
    }
    return {
      id: 'modern-loop',
      title: '1. Modern-era loop overhead',
      method:
        `${RUNS} runs × ${BLOCKS_PER_RUN} alternating blocks × ${CALLS_PER_BLOCK} sequential ` +
        `tools/call per variant (${RUNS * BLOCKS_PER_RUN * CALLS_PER_BLOCK} calls each after a ` +
        `warm-up, one input_required round per call), v2 client and v2 server over the SDK's ` +
        `InMemoryTransport, protocol 2026-07-28. Budgeted on CPU time: see the machine note.`,
      figures,
      notes,
    };
  } finally {
    await bridge.close();
    await sdk.close();
  }
}
