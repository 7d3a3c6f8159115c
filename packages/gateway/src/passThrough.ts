/**
 * What passes through unchanged: the upstream's capabilities (tools, prompts, resources,
 * completions, each with its listChanged), its lists page by page, completions, and its
 * notifications (list changes, resource updates, URL elicitation completion, log messages).
 * Resource subscriptions are offered where a host has an upstream session of its own (a 2025
 * upstream, a host with a session): the host's subscribe goes to its session, so the updates that
 * come back on it are the ones this host asked for. A 2026-07-28 host over HTTP is offered them for
 * its listen streams (resourceListens.ts subscribes upstream for it).
 */
import type { Client } from '@modelcontextprotocol/client';
import type { Server, ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';

/** The upstream notifications relayed to the host (of its own upstream session, see gateway.ts). */
export const relayedNotifications = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/elicitation/complete',
  'notifications/message',
] as const;

/** The fields of a result that belong to the wire of the upstream's era, not to its content. */
const envelopeKeys = new Set(['resultType', 'ttlMs', 'cacheScope']);

const content = (result: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(result).filter(([key]) => !envelopeKeys.has(key)));

const listenerOf = (ctx: ServerContext) => ({ signal: ctx.mcpReq.signal });

type Handler = (request: never, ctx: ServerContext) => Promise<unknown>;

interface Relay {
  relay(server: Server, method: string): Handler;
  /** The host's logging/setLevel (kept for its calls; see logging.ts). */
  setLevel(server: Server): Handler;
}

/**
 * Register the host-facing handlers of every capability the upstream declared; `clientOf` is the
 * upstream session this host's requests go to.
 */
export function registerPassThrough(
  gateway: Relay,
  server: Server,
  upstream: ServerCapabilities,
  clientOf: () => Promise<Client>,
  subscriptions = false,
): void {
  const on = (method: string, handler: (request: never, ctx: ServerContext) => Promise<unknown>) =>
    server.setRequestHandler(method as never, handler as never);
  type Paged = { params?: { cursor?: string } };
  const page = (params: Paged['params']) =>
    params?.cursor === undefined ? {} : { cursor: params.cursor };
  if (upstream.tools !== undefined) {
    on('tools/list', async (request: Paged, ctx) =>
      content(await (await clientOf()).listTools(page(request.params), listenerOf(ctx))),
    );
    on('tools/call', gateway.relay(server, 'tools/call'));
  }
  if (upstream.prompts !== undefined) {
    on('prompts/list', async (request: Paged, ctx) =>
      content(await (await clientOf()).listPrompts(page(request.params), listenerOf(ctx))),
    );
    on('prompts/get', gateway.relay(server, 'prompts/get'));
  }
  if (upstream.resources !== undefined) {
    on('resources/list', async (request: Paged, ctx) =>
      content(await (await clientOf()).listResources(page(request.params), listenerOf(ctx))),
    );
    on('resources/templates/list', async (request: Paged, ctx) =>
      content(
        await (await clientOf()).listResourceTemplates(page(request.params), listenerOf(ctx)),
      ),
    );
    on('resources/read', gateway.relay(server, 'resources/read'));
    if (subscriptions && upstream.resources.subscribe === true) {
      type Uri = { params: { uri: string } };
      on('resources/subscribe', async (request: Uri, ctx) =>
        content(await (await clientOf()).subscribeResource(request.params, listenerOf(ctx))),
      );
      on('resources/unsubscribe', async (request: Uri, ctx) =>
        content(await (await clientOf()).unsubscribeResource(request.params, listenerOf(ctx))),
      );
    }
  }
  if (upstream.logging !== undefined) on('logging/setLevel', gateway.setLevel(server));
  if (upstream.completions !== undefined)
    on('completion/complete', async (request: { params: never }, ctx) =>
      content(await (await clientOf()).complete(request.params, listenerOf(ctx))),
    );
}

/**
 * The capabilities a host sees: the upstream's, without what the gateway does not relay
 * (`subscriptions`: whether this host's resource subscriptions are relayed).
 */
registerPassThrough.capabilities = (
  upstream: ServerCapabilities,
  subscriptions = false,
): ServerCapabilities => {
  const capabilities: ServerCapabilities = {};
  if (upstream.tools !== undefined) capabilities.tools = { ...upstream.tools };
  if (upstream.prompts !== undefined) capabilities.prompts = { ...upstream.prompts };
  if (upstream.resources !== undefined) {
    const { subscribe, ...resources } = upstream.resources;
    capabilities.resources =
      subscriptions && subscribe === true ? { ...resources, subscribe: true } : resources;
  }
  if (upstream.completions !== undefined) capabilities.completions = { ...upstream.completions };
  if (upstream.logging !== undefined) capabilities.logging = {};
  return capabilities;
};
