/**
 * A legacy-era test server on the v1 SDK (`@modelcontextprotocol/sdk`): `createCompletionServerV1()`
 * builds one instance. Served over stdio by completionServerV1Stdio.ts and over Streamable HTTP by
 * completionHttpServer.ts (one instance and one CompletionState per session).
 * Same tools as completionServerV2.ts (legacy side):
 * - `open-url {elicitationId, url}` — pushes a URL-mode `elicitation/create`, returns `action:<action>`.
 * - `complete {elicitationId}` — sends `notifications/elicitation/complete` for that id (known or
 *   not) through the v1 `createElicitationCompletionNotifier`, and records it as completed.
 * - `requires-url {elicitationIds, url, once?}` — throws UrlElicitationRequiredError (-32042) until
 *   every id went through `complete` (with `once`: on the first call only); then `done:<n>` where n
 *   counts the calls with these ids so far.
 * - `link {elicitationId, url}` — pushes a URL-mode `elicitation/create` and, once accepted, holds
 *   the call until the id went through `complete`, or until the client cancels the call.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  createCompletionState,
  linked,
  markCompleted,
  REQUIRES_URL_MESSAGE,
  requiresUrl,
  type CompletionState,
} from './completionState';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** Builds the v1 server with the three tools. */
export function createCompletionServerV1(
  state: CompletionState = createCompletionState(),
): McpServer {
  const server = new McpServer(
    { name: 'completion-v1', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );

  server.registerTool(
    'open-url',
    { inputSchema: { elicitationId: z.string(), url: z.string() } },
    async ({ elicitationId, url }) => {
      const result = await server.server.elicitInput({
        mode: 'url',
        message: `Finish signing in for ${elicitationId}`,
        url,
        elicitationId,
      });
      return text(`action:${result.action}`);
    },
  );

  server.registerTool(
    'complete',
    { inputSchema: { elicitationId: z.string() } },
    async ({ elicitationId }, extra) => {
      markCompleted(state, elicitationId);
      await server.server.createElicitationCompletionNotifier(elicitationId, {
        relatedRequestId: extra.requestId,
      })();
      return text('sent');
    },
  );

  server.registerTool(
    'requires-url',
    {
      inputSchema: {
        elicitationIds: z.array(z.string()),
        url: z.string(),
        once: z.boolean().optional(),
      },
    },
    async ({ elicitationIds, url, once }) => {
      const { required, answer } = requiresUrl(state, elicitationIds, url, once);
      if (required.length > 0)
        throw new UrlElicitationRequiredError(required, REQUIRES_URL_MESSAGE);
      return text(answer);
    },
  );

  server.registerTool(
    'link',
    { inputSchema: { elicitationId: z.string(), url: z.string() } },
    async ({ elicitationId, url }, extra) => {
      const result = await server.server.elicitInput({
        mode: 'url',
        message: `Link ${elicitationId}`,
        url,
        elicitationId,
      });
      if (result.action !== 'accept') return text(`action:${result.action}`);
      await linked(state, elicitationId, extra.signal);
      await server.server.createElicitationCompletionNotifier(elicitationId, {
        relatedRequestId: extra.requestId,
      })();
      return text('linked');
    },
  );

  return server;
}
