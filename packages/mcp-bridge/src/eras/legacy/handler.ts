/**
 * The legacy era's pushed question: a 2025 server sends `elicitation/create` (or sampling, roots)
 * while a call is open, naming no call. The question is linked to the bridge calls in flight
 * (`questionLinks.ts`), attributed to the only one when exactly one is, asked with that call's own
 * options when it brought some, and shown to the extensions' `inboundRequest` rewrites.
 */
import type { BridgeState } from '../../bridgeState';
import type { InboundContext } from '../../clientPort';
import { asRecord } from '../../clientPort/shared';
import { callOrigin, inboundRewrite } from '../../extension';
import { TASK_ID_LIMIT } from '../../tasks/legacy';
import type { PushedQuestion } from '../../questionLinks';

/** Scope a pushed question to the calls it can belong to. */
export function question(
  bridge: BridgeState,
  context: InboundContext,
  params: Record<string, unknown>,
): PushedQuestion {
  const question = bridge.links.openQuestion(context.signal, true);
  // A push names no call: it is attributed only when exactly one bridge call is in flight.
  const only = question.calls.length === 1 ? question.calls[0] : undefined;
  const extensions = bridge.settings.extensions;
  question.own = only?.own;
  question.origin =
    only === undefined ? { server: bridge.host.serverName, era: 'legacy' } : callOrigin(only.info);
  // Pushed for a task (2025-11-25 tasks): the related-task meta names it.
  const related = asRecord(asRecord(params['_meta'])['io.modelcontextprotocol/related-task']);
  if (typeof related['taskId'] === 'string' && related['taskId'].length <= TASK_ID_LIMIT)
    question.origin = { ...question.origin, taskId: related['taskId'] };
  question.rewrite = inboundRewrite(extensions, params);
  return question;
}
