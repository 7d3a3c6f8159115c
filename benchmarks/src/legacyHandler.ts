/**
 * Benchmark 2 — legacy-era handler overhead. On a 2025-era connection the v2 server's legacy shim
 * pushes `elicitation/create`; one client answers through the bridge's handler (`attachWaitFor`,
 * a waitFor that accepts at once), the other through a bare SDK handler that returns the same
 * ElicitResult. Both call the tool with the SDK's plain `client.callTool`, so only the handler
 * differs.
 */
import { accept, type WaitFor } from '@waitfor/core';
import { attachWaitFor, elicitationCapabilities } from '@waitfor/mcp-bridge';
import { connectInMemory } from './benchServer';
import { confirmCalls } from './modernLoop';
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

/** Run benchmark 2. */
export async function benchLegacyHandler(): Promise<BenchResult> {
  const bridge = await connectInMemory(
    'legacy',
    { capabilities: elicitationCapabilities({ waitFor: acceptAtOnce }) as never },
    (client) => void attachWaitFor(client, { waitFor: acceptAtOnce }),
  );
  const bare = await connectInMemory(
    'legacy',
    { capabilities: { elicitation: { form: {}, url: {} } } },
    (client) =>
      client.setRequestHandler('elicitation/create', async () => ({
        action: 'accept',
        content: { confirm: true },
      })),
  );
  try {
    const viaA = (count: number) =>
      confirmCalls(count, () => bridge.client.callTool({ name: 'confirm' }));
    const viaB = (count: number) =>
      confirmCalls(count, () => bare.client.callTool({ name: 'confirm' }));
    const costs = await interleave({
      runs: RUNS,
      blocksPerRun: BLOCKS_PER_RUN,
      a: () => viaA(CALLS_PER_BLOCK),
      b: () => viaB(CALLS_PER_BLOCK),
    });
    const { figures, overBudget } = pairedFigures(costs, BLOCKS_PER_RUN * CALLS_PER_BLOCK, {
      a: 'bridge handler (attachWaitFor)',
      b: 'bare SDK handler',
      ratio: 'bridge ÷ bare handler',
      budget: 1.05,
    });
    const notes: string[] = [];
    if (overBudget !== undefined) {
      notes.push(overBudget, await explainExtraCost(PROFILED_CALLS, viaA, viaB));
    }
    return {
      id: 'legacy-handler',
      title: '2. Legacy-era handler overhead',
      method:
        `${RUNS} runs × ${BLOCKS_PER_RUN} alternating blocks × ${CALLS_PER_BLOCK} sequential ` +
        `client.callTool per variant (${RUNS * BLOCKS_PER_RUN * CALLS_PER_BLOCK} calls each after ` +
        `a warm-up), each answering one pushed elicitation/create; v2 client and v2 server (legacy ` +
        `shim) over InMemoryTransport, 2025-era handshake. Budgeted on CPU time: see the machine note.`,
      figures,
      notes,
    };
  } finally {
    await bridge.close();
    await bare.close();
  }
}
