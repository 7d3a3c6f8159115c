/**
 * A 2026-07-28 server (v2 `@modelcontextprotocol/server`, stateless Streamable HTTP on 127.0.0.1)
 * that asks under keys the test chooses, to see which keys reach the host and which keys the
 * server's answers come back under.
 *
 * Tool `keyed {keys, rounds?}`: asks one form question per key ("Question <key>", a `value`
 * string); once every key is answered it asks the same keys again, `rounds` times in all
 * (default 1, the round counted in its requestState), then answers
 * "<key>=<value or action> …" for the last round, in the order of `keys`.
 *
 * Tool `visit {times}`: asks consent to visit VISIT_URL (key `visit`) `times` rounds in a row, as a
 * server does whose out-of-band step is not finished yet, then answers "visited" — or the action,
 * as soon as the person declines or cancels.
 *
 * Tool `annotated {mode}`: asks one question (key `note`), form or URL, whose params carry the
 * server's own `_meta` (ANNOTATED_META) and fields no revision defines (ANNOTATED_FIELDS, among
 * them an `elicitationId`, which the 2026-07-28 URL shape does not have), then answers the
 * action and content it got ("accept:{…}", "decline", …).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  inputRequired,
  inputResponse,
  McpServer,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

/** The URL `visit` asks for. */
export const VISIT_URL = 'https://example.com/visit?step=1';

/** The `_meta` of `annotated`'s question. */
export const ANNOTATED_META = { 'example.com/trace': 'trace-7', 'example.com/hints': ['brief'] };

/** The fields of `annotated`'s question that no revision defines. */
export const ANNOTATED_FIELDS = {
  priority: 'high',
  display: { icon: 'pen' },
  elicitationId: 'server-made',
};

const question = (key: string) =>
  inputRequired.elicit({
    message: `Question ${key}`,
    requestedSchema: { type: 'object', properties: { value: { type: 'string' } } } as never,
  });

function createKeyedServer(): McpServer {
  const server = new McpServer({ name: 'keyed-fixture', version: '1.0.0' });
  server.registerTool(
    'keyed',
    { inputSchema: z.object({ keys: z.array(z.string()), rounds: z.number().optional() }) },
    async ({ keys, rounds = 1 }, context) => {
      const responses = context.mcpReq.inputResponses;
      const state = context.mcpReq.requestState<string>();
      const round = state === undefined ? 0 : Number(state);
      const answered = keys.every((key) => inputResponse(responses, key).kind !== 'missing');
      // Round 0 has no answers yet; each later round is the answer to the one before.
      if (round < rounds && (round === 0 || answered))
        return inputRequired({
          inputRequests: Object.fromEntries(keys.map((key) => [key, question(key)])),
          requestState: String(round + 1),
        });
      const said = keys.map((key) => {
        const view = inputResponse(responses, key);
        if (view.kind !== 'elicit') return `${key.slice(0, 12)}=${view.kind}`;
        if (view.action !== 'accept') return `${key.slice(0, 12)}=${view.action}`;
        return `${key.slice(0, 12)}=${String(view.content?.['value'])}`;
      });
      return { content: [{ type: 'text' as const, text: `round ${round}: ${said.join(' ')}` }] };
    },
  );
  server.registerTool(
    'visit',
    { inputSchema: z.object({ times: z.number() }) },
    async ({ times }, context) => {
      const state = context.mcpReq.requestState<string>();
      const round = state === undefined ? 0 : Number(state);
      const view = inputResponse(context.mcpReq.inputResponses, 'visit');
      if (view.kind === 'elicit' && view.action !== 'accept')
        return { content: [{ type: 'text' as const, text: view.action }] };
      if (round >= times) return { content: [{ type: 'text' as const, text: 'visited' }] };
      return inputRequired({
        inputRequests: {
          visit: inputRequired.elicitUrl({ message: 'Visit the page', url: VISIT_URL }),
        },
        requestState: String(round + 1),
      });
    },
  );
  server.registerTool(
    'annotated',
    { inputSchema: z.object({ mode: z.enum(['form', 'url']) }) },
    async ({ mode }, context) => {
      const view = inputResponse(context.mcpReq.inputResponses, 'note');
      if (view.kind === 'elicit') {
        const content = view.content === undefined ? '' : `:${JSON.stringify(view.content)}`;
        return { content: [{ type: 'text' as const, text: `${view.action}${content}` }] };
      }
      const asked =
        mode === 'url'
          ? { mode: 'url', message: 'Open the note', url: VISIT_URL }
          : {
              mode: 'form',
              message: 'Write a note',
              requestedSchema: { type: 'object', properties: { value: { type: 'string' } } },
            };
      const params = { ...asked, ...ANNOTATED_FIELDS, _meta: ANNOTATED_META };
      return inputRequired({
        inputRequests: { note: { method: 'elicitation/create', params } as never },
      });
    },
  );
  return server;
}

/** Serve the keyed fixture; `url` is its MCP endpoint. */
export async function startKeyedServer(): Promise<{ url: string; close(): Promise<void> }> {
  const handler = toNodeHandler(createMcpHandler(createKeyedServer, { legacy: 'reject' }));
  const http = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
