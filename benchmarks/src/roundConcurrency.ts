/**
 * Benchmark 3 — round concurrency. One modern-era call whose single round holds k inputRequests,
 * each answered by a waitFor that takes 50 ms: if the bridge resolves them concurrently, a round
 * costs about 50 ms whatever k is. The SDK's automatic loop is measured beside it for reference.
 */
import { accept, type WaitFor } from '@waitfor/core';
import { attachWaitFor, elicitationCapabilities } from '@waitfor/mcp-bridge';
import { connectInMemory, FAN_OUT_SIZES, textOf } from './benchServer';
import { times } from './format';
import { collectGarbage, median, sleep, timeAsync } from './stats';
import type { BenchResult, Figure } from './result';

/** How long the person takes per question. */
export const ANSWER_MS = 50;
/** Runs per k and variant; calls (rounds) per run. */
export const RUNS = 7;
export const CALLS_PER_RUN = 3;

const slowPerson: WaitFor = async (request) => {
  await sleep(ANSWER_MS);
  return accept(request, { confirm: true });
};

/** Run benchmark 3. */
export async function benchRoundConcurrency(): Promise<BenchResult> {
  const bridge = await connectInMemory(
    'modern',
    { capabilities: elicitationCapabilities({ waitFor: slowPerson }) as never },
    (client) => attachWaitFor(client, { waitFor: slowPerson }),
  );
  const sdk = await connectInMemory(
    'modern',
    { capabilities: { elicitation: { form: {}, url: {} } } },
    (client) =>
      client.setRequestHandler('elicitation/create', async () => {
        await sleep(ANSWER_MS);
        return { action: 'accept', content: { confirm: true } };
      }),
  );
  const variants = {
    bridge: (name: string) => bridge.bridge!.callTool({ name }),
    sdk: (name: string) => sdk.client.callTool({ name }),
  };
  const perRound: Record<string, number[]> = {};
  const round = async (variant: keyof typeof variants, size: number) => {
    const name = `fan_out_${size}`;
    const elapsed = await timeAsync(async () => {
      for (let call = 0; call < CALLS_PER_RUN; call++) {
        const text = textOf(await variants[variant](name));
        if (text !== Array(size).fill('yes').join(','))
          throw new Error(`Unexpected result ${JSON.stringify(text)}`);
      }
    });
    return elapsed / CALLS_PER_RUN;
  };
  try {
    for (const size of FAN_OUT_SIZES) {
      await round('bridge', size);
      await round('sdk', size);
    }
    for (let run = 0; run < RUNS; run++) {
      collectGarbage();
      // Alternate the order of k and of the variants so drift hits every cell alike.
      const sizes = run % 2 === 0 ? [...FAN_OUT_SIZES] : [...FAN_OUT_SIZES].reverse();
      const order: Array<keyof typeof variants> =
        run % 2 === 0 ? ['bridge', 'sdk'] : ['sdk', 'bridge'];
      for (const size of sizes) {
        for (const variant of order) {
          (perRound[`${variant}:${size}`] ??= []).push(await round(variant, size));
        }
      }
    }
  } finally {
    await bridge.close();
    await sdk.close();
  }
  const figures: Figure[] = [];
  const notes: string[] = [];
  for (const size of FAN_OUT_SIZES) {
    const bridgeRatio = median(perRound[`bridge:${size}`]!) / ANSWER_MS;
    const sdkRatio = median(perRound[`sdk:${size}`]!) / ANSWER_MS;
    figures.push({
      name: `bridge, k = ${size}: wall time per round ÷ ${ANSWER_MS} ms`,
      value: bridgeRatio,
      unit: '×',
      runs: RUNS,
      budget: { max: 1.5, label: '≤ 1.5' },
      detail: `median round ${median(perRound[`bridge:${size}`]!).toFixed(1)} ms`,
    });
    figures.push({
      name: `SDK automatic loop, k = ${size} (reference)`,
      value: sdkRatio,
      unit: '×',
      runs: RUNS,
      detail: `median round ${median(perRound[`sdk:${size}`]!).toFixed(1)} ms`,
    });
    if (bridgeRatio > 1.5) {
      notes.push(
        `k = ${size}: a round takes ${times(bridgeRatio)} the answer time, over the 1.5 budget — the ` +
          `questions of a round are not answered concurrently enough.`,
      );
    }
  }
  return {
    id: 'round-concurrency',
    title: '3. Round concurrency',
    method:
      `A modern-era tools/call whose one round holds k inputRequests, each answered after ` +
      `${ANSWER_MS} ms; ${RUNS} runs × ${CALLS_PER_RUN} calls per k and variant (interleaved), ` +
      `in-memory transport. A figure near 1 means the k answers overlapped.`,
    figures,
    notes,
  };
}
