/**
 * The shared hostile table (mcp-bridge src/__fixtures__/hostileCases.ts) through `mcpTools`: each
 * case is one AI SDK tool execution (`execute`, with the model's abort signal) on every bridge a
 * host holds (`connect`, `attachWaitFor`; v2 clients of both eras, v1 legacy), against the hostile
 * server over HTTP. It ends as the bridge's call does, as the README says: a result, an
 * `AiSdkError` `tool_error` for an `isError` result (a legacy server's refusal: its result kept),
 * or the bridge's `BridgeError` unchanged — with the same answers counted on the server.
 */
import { describe, expect, test } from 'vitest';
import {
  answersSent,
  casesOf,
  entriesOf,
  expectEnding,
  personOf,
  sentIn,
  settle,
  type Settled,
} from '../../mcp-bridge/src/__fixtures__/hostileCases';
import {
  failOnUnhandledRejections,
  withDeadline,
} from '../../mcp-bridge/src/__fixtures__/hostileHelpers';
import { useHostileHttpServer } from '../../mcp-bridge/src/__fixtures__/hostileHttp';
import { openSource, sourcePaths } from './__fixtures__/sources';
import { AiSdkError, mcpTools } from './index';

failOnUnhandledRejections();

const server = useHostileHttpServer();

/** An `isError` result thrown as the adapter's tool_error reads as that result (its text). */
function unwrapToolError(settled: Settled): Settled {
  if (!('error' in settled) || !AiSdkError.isInstance(settled.error)) return settled;
  expect(settled.error.code).toBe('tool_error');
  expect(settled.error.result?.['isError']).toBe(true);
  return { result: settled.error.result };
}

describe.each(sourcePaths)('mcpTools through %s (%s client, %s era)', (path, kind, era) => {
  test.each(casesOf(era))('%s', async (_title, item, ending) => {
    const controller = new AbortController();
    const person = personOf(item.person, controller);
    const open = await openSource(path, kind, server.url, { waitFor: person.waitFor });
    try {
      const tools = await mcpTools(open.source, { call: item.call ?? {} });
      const execute = tools[item.tool]!.execute!;
      const settled = await withDeadline(
        settle(
          Promise.resolve(
            execute(item.arguments ?? {}, {
              toolCallId: 'call-1',
              messages: [],
              abortSignal: controller.signal,
            }),
          ),
        ),
        20_000,
      );
      const isRefusal = 'result' in ending && String(ending.result).startsWith('refused');
      // A legacy server's refusal is an isError result: the adapter throws it as tool_error.
      if (isRefusal)
        expect(AiSdkError.isInstance((settled as { error?: unknown }).error)).toBe(true);
      expectEnding(unwrapToolError(settled), kind === 'v1' ? (item.v1Ends ?? ending) : ending);
      expect(person.requests).toHaveLength(item.asked);
      await expect.poll(() => answersSent(server.log, item.tool, era)).toBe(sentIn(item, era));
      if (era === 'legacy')
        expect(entriesOf(server.log, item.tool, 'refusal')).toHaveLength(item.refused ?? 0);
      expect(open.openRequests()).toEqual([]);
    } finally {
      await open.close();
    }
  });
});
