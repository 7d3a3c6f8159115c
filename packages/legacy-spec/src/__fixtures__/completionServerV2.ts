/**
 * A dual-era test server on the v2 SDK (`@modelcontextprotocol/server`): `createCompletionServerV2(era)`
 * builds one instance. Served over stdio by completionServerV2Stdio.ts (`serveStdio`, so one process
 * answers a legacy (`initialize`) or a modern (`server/discover`) client) and over Streamable HTTP by
 * completionHttpServer.ts (legacy era, one instance per session).
 *
 * Tools (both eras unless noted):
 * - `open-url {elicitationId, url}` — legacy: pushes a URL-mode `elicitation/create` carrying
 *   `elicitationId` and returns `action:<action>`. Modern: asks the same URL through `input_required`.
 * - `complete {elicitationId}` — legacy only: sends `notifications/elicitation/complete` for that id
 *   through `createElicitationCompletionNotifier` (any id, known or not) and records it as completed.
 * - `requires-url {elicitationIds, url, once?}` — legacy only: throws URLElicitationRequiredError
 *   (-32042) listing one URL elicitation per id until every id went through `complete` (with `once`:
 *   on the first call only); then `done:<n>` where n counts the calls with these ids so far.
 * - `complete-all {elicitationIds}` — legacy only: `complete` for every id, in one call.
 * - `link {elicitationId, url}` — legacy only: pushes a URL-mode `elicitation/create` and, once
 *   accepted, holds the call until the id went through `complete` (then sends the completion and
 *   returns `linked`), or until the client cancels the call.
 *
 * The completed ids and call counts live in a CompletionState: one per connection.
 */
import {
  inputRequired,
  McpServer,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/server';
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

/** Builds one server instance for `era` (the one `serveStdio` chose, or `legacy` for an HTTP session). */
export function createCompletionServerV2(
  era: 'legacy' | 'modern',
  state: CompletionState = createCompletionState(),
): McpServer {
  const server = new McpServer(
    { name: 'completion-v2', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );

  server.registerTool(
    'open-url',
    { inputSchema: z.object({ elicitationId: z.string(), url: z.string() }) },
    async ({ elicitationId, url }, ctx) => {
      const message = `Finish signing in for ${elicitationId}`;
      if (era === 'modern') {
        const response = ctx.mcpReq.inputResponses?.['browser'] as { action?: string } | undefined;
        if (!response) {
          return inputRequired({
            inputRequests: { browser: inputRequired.elicitUrl({ message, url }) },
          });
        }
        return text(`action:${String(response.action)}`);
      }
      const result = await ctx.mcpReq.elicitInput({ mode: 'url', message, url, elicitationId });
      return text(`action:${result.action}`);
    },
  );

  server.registerTool(
    'complete',
    { inputSchema: z.object({ elicitationId: z.string() }) },
    async ({ elicitationId }, ctx) => {
      markCompleted(state, elicitationId);
      const notify = server.server.createElicitationCompletionNotifier(elicitationId, {
        relatedRequestId: ctx.mcpReq.id,
      });
      await notify();
      return text('sent');
    },
  );

  server.registerTool(
    'requires-url',
    {
      inputSchema: z.object({
        elicitationIds: z.array(z.string()),
        url: z.string(),
        once: z.boolean().optional(),
      }),
    },
    async ({ elicitationIds, url, once }) => {
      const { required, answer } = requiresUrl(state, elicitationIds, url, once);
      if (required.length > 0)
        throw new UrlElicitationRequiredError(required, REQUIRES_URL_MESSAGE);
      return text(answer);
    },
  );

  server.registerTool(
    'complete-all',
    { inputSchema: z.object({ elicitationIds: z.array(z.string()) }) },
    async ({ elicitationIds }) => {
      for (const elicitationId of elicitationIds) {
        markCompleted(state, elicitationId);
        await server.server.createElicitationCompletionNotifier(elicitationId)();
      }
      return text('sent');
    },
  );

  server.registerTool(
    'link',
    { inputSchema: z.object({ elicitationId: z.string(), url: z.string() }) },
    async ({ elicitationId, url }, ctx) => {
      const message = `Link ${elicitationId}`;
      const result = await ctx.mcpReq.elicitInput({ mode: 'url', message, url, elicitationId });
      if (result.action !== 'accept') return text(`action:${result.action}`);
      await linked(state, elicitationId, ctx.mcpReq.signal);
      await server.server.createElicitationCompletionNotifier(elicitationId, {
        relatedRequestId: ctx.mcpReq.id,
      })();
      return text('linked');
    },
  );

  return server;
}
