/**
 * The modern era's question at the registered handler: the v2 SDK's own input_required driver (a
 * host calling `client.callTool` itself) hands each inputRequest to the handler the bridge
 * registered, keyed by its inputRequests key. Nothing is linked to bridge calls (they run their own
 * loop, `call.ts`); detaching the bridge still ends the question.
 */
import type { RequestOrigin } from '@waitfor/core';
import type { BridgeState } from '../../bridgeState';
import type { InboundContext } from '../../clientPort';
import type { PushedQuestion } from '../../questionLinks';

/** Scope a question of the SDK's own loop. */
export function question(bridge: BridgeState, context: InboundContext): PushedQuestion {
  const question = bridge.links.openQuestion(context.signal, false);
  const origin: RequestOrigin = { server: bridge.host.serverName, era: 'modern' };
  if (context.id !== undefined) origin.inputKey = String(context.id);
  question.origin = origin;
  return question;
}
