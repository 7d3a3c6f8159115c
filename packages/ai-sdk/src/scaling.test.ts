/**
 * The bridge's scale cases (mcp-bridge src/__fixtures__/scaleCases.ts) through `mcpTools`: one AI
 * SDK tool execution (`execute`, with the model's abort signal) of the hostile server's
 * `many_questions {size}` — one 2026-07-28 round of `size` inputRequests, or `size` concurrent
 * 2025 pushes in one call — over HTTP, on every bridge a host holds (`connect`, `attachWaitFor`;
 * v2 clients of both eras, v1 legacy). 100, 1,000 and the largest size cost the same per question:
 * the most listeners waitfor's code holds on one signal (the model's included) does not grow; no
 * process warning; no question is left open once the execution ends. No time is measured.
 */
import { describe, expect, it } from 'vitest';
import { textOf } from '../../mcp-bridge/src/__fixtures__/clients';
import { useHostileHttpServer } from '../../mcp-bridge/src/__fixtures__/hostileHttp';
import {
  countListeners,
  largestFor,
  listenerTally,
  patientPerson,
  recordWarningLines,
  scaleSizes,
} from '../../mcp-bridge/src/__fixtures__/scaleCases';
import { openSource, sourcePaths } from './__fixtures__/sources';
import { mcpTools } from './index';

const server = useHostileHttpServer();

const processWarnings = recordWarningLines();

describe.each(sourcePaths)('mcpTools through %s (%s client, %s era)', (path, kind, era) => {
  const tally = listenerTally();
  const largest = largestFor(era);

  it.each(scaleSizes(era))(
    '%d questions open at once: no signal holding a listener each, none left open, no warning',
    async (size) => {
      const mostListeners = countListeners();
      const open = await openSource(path, kind, server.url, {
        waitFor: patientPerson(size),
        limits: { inputRequests: size },
      });
      try {
        const tools = await mcpTools(open.source, { call: { timeout: 600_000 } });
        // The model's signal: one per execution, shared by every question of the call.
        const model = new AbortController();
        const result = await tools['many_questions']!.execute!(
          { size },
          { toolCallId: 'call-1', messages: [], abortSignal: model.signal },
        );
        expect(textOf(result)).toBe(`answered ${size}`);
        expect(open.openRequests()).toEqual([]);
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
});
