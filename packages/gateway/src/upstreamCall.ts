/**
 * The upstream side of one relayed call: the bridge call made for it (the upstream's own keys kept
 * with its questions, the call's log level sent to a 2026-07-28 server), and the sinks that carry
 * the upstream's progress and log lines into the host's request.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Request, RequestOrigin, AbortSignalLike, WaitForContext } from '@waitfor/core';
import type { CallProgress, Connection } from '@waitfor/mcp-bridge';
import { isRecord } from '@waitfor/runtime';
import type { GatewayCall } from './call';
import { levelMeta } from './logging';

type HandlerContext = { signal?: AbortSignalLike | undefined; origin: RequestOrigin };

/** The upstream's inputRequests key a question's origin names (modern era), if it is a string. */
const inputKeyOf = (origin: unknown): string | undefined => {
  const key = isRecord(origin) ? origin['inputKey'] : undefined;
  return typeof key === 'string' ? key : undefined;
};

/** What names a relayed call: its tool or prompt name, or its resource's URI. */
export const nameOf = (method: string, params: Record<string, unknown>): string =>
  String(method === 'resources/read' ? params['uri'] : params['name']);

/**
 * A host leg's sinks of the upstream's progress and log lines: they go out inside the host's
 * request, in order; the returned function waits until all of it went, before the leg's answer.
 */
export function forwardNotifications(
  call: GatewayCall,
  ctx: ServerContext,
): () => Promise<unknown> {
  let sent: Promise<unknown> = Promise.resolve();
  const forward = (method: string, params: Record<string, unknown>) => {
    sent = sent.then(() => ctx.mcpReq.notify({ method, params } as never).catch(() => undefined));
  };
  const token = ctx.mcpReq._meta?.progressToken;
  if (token !== undefined)
    call.progress = (progress) =>
      forward('notifications/progress', { progressToken: token, ...progress });
  call.log = (params) => forward('notifications/message', params);
  return () => sent;
}

/**
 * Make the upstream call of `call` on `connection` (a 2026-07-28 one: its loop's questions go to
 * `call`, each with the params its server sent, as the gateway's extension kept them in `rawParams`).
 */
export function callUpstream(
  call: GatewayCall,
  params: Record<string, unknown>,
  connection: Connection,
  listeners: { signal: AbortSignal; onprogress: (progress: CallProgress) => void; timeout: number },
  rawParams: Pick<WeakMap<Request, Record<string, unknown>>, 'get'>,
) {
  const options = {
    ...listeners,
    ...(connection.era === 'modern'
      ? {
          // The upstream's own inputRequests keys go with its questions (passed through).
          waitFor: (request: Request, asked?: WaitForContext) =>
            call.ask(
              request,
              asked?.signal,
              rawParams.get(request),
              inputKeyOf(request.data?.origin),
            ),
          sampling: (params: Record<string, unknown>, context: HandlerContext) =>
            call.relay(
              'sampling/createMessage',
              params,
              context.signal,
              inputKeyOf(context.origin),
            ),
          roots: (context: HandlerContext) =>
            call.relay('roots/list', {}, context.signal, inputKeyOf(context.origin)) as never,
        }
      : {}),
  };
  // A 2026-07-28 server logs only at the request's own level (a 2025 one was told with setLevel).
  const meta = connection.era === 'modern' ? levelMeta(call.logLevel) : {};
  if (call.method === 'tools/call')
    return connection.callTool(
      {
        name: call.name,
        arguments: (params['arguments'] ?? {}) as Record<string, unknown>,
        ...meta,
      },
      options,
    );
  if (call.method === 'prompts/get')
    return connection.getPrompt(
      {
        name: call.name,
        arguments: (params['arguments'] ?? {}) as Record<string, string>,
        ...meta,
      },
      options,
    );
  return connection.readResource({ uri: call.name, ...meta }, options);
}
