import type { Request, RequestOrigin } from '@waitfor/core';
import { elicitationToRequest, type CallInfo } from '@waitfor/mcp-bridge';
import type { UrlElicitationParams } from './urlElicitationRequired';

/** Who asks, for a Request born from a -32042 error of a call. */
export interface UrlElicitationSource {
  server: string;
  call: CallInfo;
}

const targetKey: Record<string, string> = {
  'tools/call': 'tool',
  'prompts/get': 'prompt',
  'resources/read': 'resource',
};

/**
 * The `authorization` Request of one elicitation listed by a -32042 error: the bridge's own mapping,
 * plus the server's `elicitationId` and who asks (same `data.origin` shape as the bridge's Requests).
 */
export function urlElicitationRequest(
  params: UrlElicitationParams,
  source: UrlElicitationSource,
): Request {
  const request = elicitationToRequest(params);
  const origin: RequestOrigin = { server: source.server, era: 'legacy' };
  const key = targetKey[source.call.method];
  const target = source.call.params['name'] ?? source.call.params['uri'];
  if (key !== undefined && typeof target === 'string') origin[key] = target;
  return { ...request, data: { ...request.data, elicitationId: params.elicitationId, origin } };
}
