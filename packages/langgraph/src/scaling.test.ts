/**
 * The bridge's scale cases (mcp-bridge src/__fixtures__/scaleCases.ts) through
 * `callToolWithInterrupt` in a real StateGraph node, on every bridge path (`attachWaitFor`,
 * `connect`; v2 clients of both eras, v1 legacy) against the hostile server's `many_questions
 * {size}` over HTTP. Legacy era: `size` concurrent pushes in one call, answered inline by a
 * waitFor that answers nothing until all are open. Modern era: one round of `size` inputRequests
 * interrupts the run once with all of them, and the run is resumed with `size` answers. 100, 1,000
 * and the largest size cost the same per question: the most listeners waitfor's code holds on one
 * signal (the run's included) does not grow; no process warning; no question is left open once
 * the run ends. No time is measured.
 */
import { Command, MemorySaver } from '@langchain/langgraph';
import { accept } from '@waitfor/core';
import { describe, expect, it } from 'vitest';
import { bridgePaths, openClient } from '../../mcp-bridge/src/__fixtures__/clients';
import { useHostileHttpServer } from '../../mcp-bridge/src/__fixtures__/hostileHttp';
import {
  countListeners,
  largestFor,
  listenerTally,
  patientPerson,
  recordWarningLines,
  scaleSizes,
} from '../../mcp-bridge/src/__fixtures__/scaleCases';
import { toolGraph } from './__fixtures__/graph';
import { waitforInterrupts, type InterruptSource } from './index';

const server = useHostileHttpServer();

const processWarnings = recordWarningLines();

let thread = 0;

/** Runs `many_questions {size}` in a graph, resuming its one interrupt with every answer. */
async function runGraph(source: InterruptSource, size: number, signal: AbortSignal) {
  const { graph } = toolGraph(source, new MemorySaver(), { call: { timeout: 600_000 } });
  const config = { configurable: { thread_id: `scale-${++thread}` }, signal };
  const interrupted: number[] = [];
  let run = await graph.invoke({ tool: 'many_questions', args: { size } }, config);
  for (let pending = waitforInterrupts(run); pending.length > 0;) {
    const { requests } = pending[0]!.value;
    interrupted.push(requests.length);
    const answers = requests.map((request) => accept(request, { confirmed: true }));
    run = await graph.invoke(new Command({ resume: answers }), config);
    pending = waitforInterrupts(run);
  }
  return { text: (run as { text?: string }).text, interrupted };
}

describe.each(bridgePaths)(
  'callToolWithInterrupt through %s, %s client (%s era)',
  (path, kind, era) => {
    const tally = listenerTally();
    const largest = largestFor(era);

    it.each(scaleSizes(era))(
      '%d questions open at once: no signal holding a listener each, none left open, no warning',
      async (size) => {
        const mostListeners = countListeners();
        const open = await openClient(
          kind,
          'http',
          { url: server.url },
          { waitFor: patientPerson(size), limits: { inputRequests: size } },
          path,
        );
        try {
          const run = new AbortController();
          const { text, interrupted } = await runGraph(
            open.bridge as unknown as InterruptSource,
            size,
            run.signal,
          );
          expect(text).toBe(`answered ${size}`);
          // Modern: one interrupt holding the whole round; legacy: none (answered inline).
          expect(interrupted).toEqual(era === 'modern' ? [size] : []);
          expect(open.attachment.host.openRequests()).toEqual([]);
          tally.record(size, mostListeners());
          expect(await processWarnings()).toEqual([]);
        } finally {
          await open.close();
        }
      },
      // A deadline for a blocked loop on a loaded 2-core machine, not a measurement.
      240_000,
    );

    it(`holds as many listeners on one signal for ${largest} questions as for 100 (flat)`, () => {
      tally.expectFlat(largest);
    });
  },
);
