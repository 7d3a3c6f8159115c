import type { Request, RequestOrigin } from '@waitfor/core';
import { elicitationToRequest, type CallInfo } from '@waitfor/mcp-bridge';
import type { UrlElicitationParams } from './urlElicitationRequired';

const targetKey: Record<string, string> = {
  'tools/call': 'tool',
  'prompts/get': 'prompt',
  'resources/read': 'resource',
};

/**
 * The `authorization` Request of one elicitation listed by a -32042 error of `call` to `server`:
 * the bridge's own mapping, plus the server's `elicitationId` and who asks (same `data.origin`
 * shape as the bridge's Requests).
 */
export function urlElicitationRequest(
  params: UrlElicitationParams,
  server: string,
  call: CallInfo,
): Request {
  const request = elicitationToRequest(params);
  const origin: RequestOrigin = { server, era: 'legacy' };
  const key = targetKey[call.method];
  const target = call.params['name'] ?? call.params['uri'];
  if (key !== undefined && typeof target === 'string') origin[key] = target;
  return { ...request, data: { ...request.data, elicitationId: params.elicitationId, origin } };
}
