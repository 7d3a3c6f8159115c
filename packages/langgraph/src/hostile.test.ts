/**
 * The shared hostile table (mcp-bridge src/__fixtures__/hostileCases.ts) through
 * `callToolWithInterrupt` in a real StateGraph node, on every bridge path (`attachWaitFor`,
 * `connect`; v2 clients of both eras, v1 legacy) against the hostile server over HTTP. The node's
 * call ends as the bridge's does (README, Errors): its result, or the bridge's `BridgeError`
 * unchanged — counted on the server the same way. The call's settlement is watched on the source:
 * an aborted run rejects with the abort reason whatever the node does.
 *
 * Legacy era: a push reaches the table's person through `waitFor`, inline. Modern era: a question
 * interrupts the run and the test resumes it with the person's answers (`Command({ resume })`), so
 * a waitFor that throws does not exist there (the host simply does not resume), and an abort between
 * two legs has nothing in flight to end (both run in the legacy era only). An answer for another
 * Request is refused by the bridge before anything is sent and asked again (`answer_mismatch`).
 */
import { Command, MemorySaver } from '@langchain/langgraph';
import type { CallOptions, ToolParams } from '@waitfor/mcp-bridge';
import { accept } from '@waitfor/core';
import { describe, expect, test } from 'vitest';
import { bridgePaths, openClient } from '../../mcp-bridge/src/__fixtures__/clients';
import {
  answersSent,
  casesOf,
  entriesOf,
  expectEnding,
  personOf,
  sentIn,
  settle,
  type HostileCase,
  type Settled,
} from '../../mcp-bridge/src/__fixtures__/hostileCases';
import {
  failOnUnhandledRejections,
  withDeadline,
} from '../../mcp-bridge/src/__fixtures__/hostileHelpers';
import { useHostileHttpServer } from '../../mcp-bridge/src/__fixtures__/hostileHttp';
import { toolGraph } from './__fixtures__/graph';
import { waitforInterrupts, type InterruptSource } from './index';

failOnUnhandledRejections();

const server = useHostileHttpServer();

/** `source`, recording how its last callTool settled (a leg of a modern call is one too). */
function watched(source: InterruptSource) {
  const calls: Array<Promise<Settled>> = [];
  const wrapped: InterruptSource = {
    era: source.era,
    serverName: source.serverName,
    resume: ((...args: Parameters<InterruptSource['resume']>) => {
      const leg = source.resume(...args);
      calls.push(settle(leg));
      return leg;
    }) as InterruptSource['resume'],
    callTool: ((params: ToolParams, options?: CallOptions) => {
      const call = source.callTool(params, options);
      calls.push(settle(call));
      return call;
    }) as InterruptSource['callTool'],
  };
  return { source: wrapped, last: () => calls.at(-1) };
}

let thread = 0;

/** Runs `item` in a graph to its end, resuming each interrupt with the person's answers. */
async function runGraph(source: InterruptSource, item: HostileCase, signal: AbortSignal) {
  const { graph } = toolGraph(source, new MemorySaver(), { call: item.call ?? {} });
  const config = { configurable: { thread_id: `hostile-${++thread}` }, signal };
  const asked: string[] = [];
  let refused: string | undefined;
  let run = await settle(graph.invoke({ tool: item.tool, args: item.arguments ?? {} }, config));
  for (let round = 0; 'result' in run && round < 20; round++) {
    const pending = waitforInterrupts(run.result);
    if (pending.length === 0) break;
    const { requests, refused: refusal } = pending[0]!.value;
    if (refusal !== undefined) {
      refused = refusal.code;
      break;
    }
    asked.push(...requests.map((request) => request.id));
    const answers = requests.map((request) =>
      item.person === 'answersOther'
        ? accept(`${request.id}-other`, { confirmed: true })
        : accept(request, { confirmed: true }),
    );
    run = await settle(graph.invoke(new Command({ resume: answers }), config));
  }
  return { run, asked, refused };
}

describe.each(bridgePaths)(
  'callToolWithInterrupt through %s, %s client (%s era)',
  (path, kind, era) => {
    const cases = casesOf(era).filter(
      ([, item]) => era === 'legacy' || (item.person !== 'throws' && item.person !== 'aborts'),
    );
    test.each(cases)('%s', async (_title, item, ending) => {
      const controller = new AbortController();
      const person = personOf(item.person, controller);
      const open = await openClient(
        kind,
        'http',
        { url: server.url },
        { waitFor: person.waitFor },
        path,
      );
      try {
        const { source, last } = watched(open.bridge as unknown as InterruptSource);
        const { run, asked, refused } = await withDeadline(
          runGraph(source, item, controller.signal),
          20_000,
        );
        // A run that ended wrote the tool's text; one that failed failed with the call (or the abort).
        const settled: Settled =
          'result' in run
            ? {
                result: {
                  content: [{ type: 'text', text: (run.result as { text?: string }).text }],
                },
              }
            : await last()!;
        if (era === 'modern' && item.person === 'answersOther') {
          // Refused before anything is sent, and asked again: the call is still open, nothing sent.
          expect(refused).toBe('answer_mismatch');
          expect(asked).toHaveLength(item.asked);
          expect(answersSent(server.log, item.tool, era)).toBe(0);
          return;
        }
        expectEnding(settled, kind === 'v1' ? (item.v1Ends ?? ending) : ending);
        expect(era === 'legacy' ? person.requests : asked).toHaveLength(item.asked);
        await expect.poll(() => answersSent(server.log, item.tool, era)).toBe(sentIn(item, era));
        if (era === 'legacy')
          expect(entriesOf(server.log, item.tool, 'refusal')).toHaveLength(item.refused ?? 0);
      } finally {
        await open.close();
      }
    });
  },
);
