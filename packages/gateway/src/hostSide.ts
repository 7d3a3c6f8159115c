/**
 * The host's side of a relayed call, in the host's own era:
 * - a modern-era host (2026-07-28) gets the upstream's questions as an `input_required` result
 *   with a sealed requestState; its retry answers them and the call goes on;
 * - a legacy-era host (2025) gets each question pushed as `elicitation/create` inside its open
 *   call, bounded by `holdMs`.
 * Questions in a mode the host did not declare are declined upstream, and the log says so. The
 * upstream's sampling/createMessage and roots/list go the same ways (pushed, or an inputRequest);
 * toward a host that did not declare the capability they fail upstream with -32601, as the
 * host's own client would answer a request it has no handler for.
 */
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { decline } from '@waitfor/core';
import { isBridgeError } from '@waitfor/mcp-bridge';
import { isRecord, MAX_TIMER_DELAY } from '@waitfor/runtime';
import {
  respond,
  withdraw,
  type GatewayCall,
  type HostRequest,
  type Elicitation,
  type Question,
  type Step,
} from './call';
import type { ElicitParams } from './elicitParams';
import type { Clock, HeldCalls } from './holds';

/** What the host side needs of its gateway. */
export interface HostSide {
  holds: HeldCalls;
  holdMs: number;
  clock: Clock;
  log(line: string): void;
  cannotAsk: CannotAsk;
}

/** Whether the request came in the modern era (its `_meta` envelope names a protocol version). */
export const isModernRequest = (ctx: ServerContext): boolean =>
  envelopeOf(ctx)[PROTOCOL_VERSION_META_KEY] !== undefined;

const envelopeOf = (ctx: ServerContext): Record<string, unknown> =>
  (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;

/** The elicitation modes the host declared: per request (modern) or at initialize (legacy). */
export function hostModes(server: Server, ctx: ServerContext): Set<'form' | 'url'> {
  const capabilities = isModernRequest(ctx)
    ? envelopeOf(ctx)[CLIENT_CAPABILITIES_META_KEY]
    : server.getClientCapabilities();
  const elicitation = isRecord(capabilities) ? capabilities['elicitation'] : undefined;
  if (!isRecord(elicitation)) return new Set();
  const modes = new Set<'form' | 'url'>();
  if (isRecord(elicitation['form'])) modes.add('form');
  if (isRecord(elicitation['url'])) modes.add('url');
  // `elicitation: {}` is form only (the 2025 back-compat rule, kept in 2026-07-28).
  if (modes.size === 0) modes.add('form');
  return modes;
}

/** The upstream requests (sampling, roots) the host declared it serves, per request or at initialize. */
export function hostRequests(server: Server, ctx: ServerContext): Set<HostRequest['method']> {
  const capabilities = isModernRequest(ctx)
    ? envelopeOf(ctx)[CLIENT_CAPABILITIES_META_KEY]
    : server.getClientCapabilities();
  const served = new Set<HostRequest['method']>();
  if (!isRecord(capabilities)) return served;
  if (isRecord(capabilities['sampling'])) served.add('sampling/createMessage');
  if (isRecord(capabilities['roots'])) served.add('roots/list');
  return served;
}

/** The error the host gets for an upstream failure: the upstream's own JSON-RPC error when it sent one. */
export function hostError(error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (isBridgeError(error) && error.rpc !== undefined)
    return new ProtocolError(error.rpc.code, error.rpc.message, error.rpc.data);
  const message = error instanceof Error ? error.message : String(error);
  return new ProtocolError(ProtocolErrorCode.InternalError, `upstream call failed: ${message}`);
}

const outcome = (step: Exclude<Step, { kind: 'questions' }>): unknown => {
  if (step.kind === 'failed') throw hostError(step.error);
  return step.result;
};

/**
 * What becomes of a question the host cannot be asked (it declared no elicitation, or not this
 * mode): by default it is declined upstream (and logged); createPage's asks the person on a page.
 * Called again for a question it already took (a later step lists it while it waits): ignore it.
 */
export type CannotAsk = (side: HostSide, call: GatewayCall, question: Elicitation) => void;

export const declineUnaskable: CannotAsk = (side, call, question) => {
  side.log(
    `the host declared no elicitation ${question.params.mode} mode: declined upstream "${question.params.message}" (${call.method} ${call.name})`,
  );
  question.settle(decline(question.request));
};

/** The questions the host can be asked; the others go to `side.cannotAsk`. */
function askable(side: HostSide, call: GatewayCall, questions: Question[], modes: Set<string>) {
  return questions.filter((question) => {
    if (question.method !== 'elicitation/create' || modes.has(question.params.mode)) return true;
    side.cannotAsk(side, call, question);
    return false;
  });
}

/** The questions minus the sampling and roots requests the host does not serve (refused upstream). */
function servable(questions: Question[], served: Set<string>) {
  return questions.filter((question) => {
    if (question.method === 'elicitation/create' || served.has(question.method)) return true;
    question.refuse(
      new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `The host does not serve ${question.method}`,
      ),
    );
    return false;
  });
}

/** Toward a modern host: the params without the legacy-only elicitationId. */
const modernParams = (params: ElicitParams): ElicitParams => {
  if (params.mode !== 'url' || params.elicitationId === undefined) return params;
  const { elicitationId: _omitted, ...rest } = params;
  return rest;
};

/** A modern host's leg: the outcome, or the next questions as an input_required result. */
export async function toModernHost(
  side: HostSide,
  call: GatewayCall,
  modes: Set<string>,
  served: Set<string> = new Set(),
) {
  for (;;) {
    const step = await call.next();
    if (step.kind !== 'questions') return outcome(step);
    const questions = askable(side, call, servable(step.questions, served), modes);
    if (questions.length === 0) continue;
    const requestState = side.holds.hold(call);
    if (requestState === undefined) {
      call.cancel(new Error('too many held calls'));
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        'The gateway holds too many calls waiting for answers; try again later',
      );
    }
    const inputRequests = Object.fromEntries(
      questions.map((question) => [
        question.key,
        question.method === 'elicitation/create'
          ? { method: question.method, params: modernParams(question.params) }
          : { method: question.method, params: question.params },
      ]),
    );
    return inputRequired({ inputRequests: inputRequests as never, requestState });
  }
}

/**
 * The URL questions a legacy host consented to under an elicitationId the gateway made up (the
 * upstream, 2026-07-28, has none): the gateway owes the host their
 * `notifications/elicitation/complete`, sent once the upstream moved past the question — its next
 * round asks no more for that URL, or the call completed. A URL asked again keeps its id.
 */
class OwedCompletions {
  readonly #byUrl = new Map<string, string>();

  /** The elicitationId a question is pushed under (the upstream's, an owed one, or a fresh one). */
  params(question: Question): Record<string, unknown> {
    if (question.method !== 'elicitation/create') return question.params;
    const params = question.params;
    if (params.mode !== 'url' || params.elicitationId !== undefined) return params;
    return { ...params, elicitationId: this.#byUrl.get(params.url) ?? randomUUID() };
  }

  /** The host answered a push: an accepted URL under a made-up id is owed its completion. */
  answered(question: Question, pushed: Record<string, unknown>, result: unknown): void {
    if (question.method !== 'elicitation/create' || question.params.mode !== 'url') return;
    if (question.params.elicitationId !== undefined) return;
    if (isRecord(result) && result['action'] === 'accept')
      this.#byUrl.set(question.params.url, String(pushed['elicitationId']));
  }

  /** The ids the upstream moved past at `step` (a failed call owes nothing); they are forgotten. */
  due(step: Step): string[] {
    if (step.kind === 'failed') {
      this.#byUrl.clear();
      return [];
    }
    const asked = new Set(
      step.kind === 'questions'
        ? step.questions.flatMap((question) =>
            question.method === 'elicitation/create' && question.params.mode === 'url'
              ? [question.params.url]
              : [],
          )
        : [],
    );
    const due = [...this.#byUrl].filter(([url]) => !asked.has(url));
    for (const [url] of due) this.#byUrl.delete(url);
    return due.map(([, elicitationId]) => elicitationId);
  }
}

/** Push one question to a legacy host inside its open call; its answer goes upstream. */
async function push(
  side: HostSide,
  server: Server,
  ctx: ServerContext,
  call: GatewayCall,
  question: Question,
  owed: OwedCompletions,
) {
  // The bound is the gateway's clock: on expiry the question is withdrawn from the host
  // (notifications/cancelled, through the aborted signal) and the call ends upstream.
  const timer = side.clock.setTimeout(() => {
    side.log(`a question of ${call.method} ${call.name} outlived ${side.holdMs} ms: the call ends`);
    call.cancel(new Error(`the host did not answer within ${side.holdMs} ms`));
  }, side.holdMs);
  try {
    const params = owed.params(question);
    const result = await server.request({ method: question.method, params } as never, {
      relatedRequestId: ctx.mcpReq.id,
      signal: question.signal,
      timeout: MAX_TIMER_DELAY,
    });
    owed.answered(question, params, result);
    respond(question, result);
  } catch (error) {
    withdraw(question, hostError(error));
  } finally {
    side.clock.clearTimeout(timer);
  }
}

/**
 * A legacy host's call: each question pushed as soon as it comes, while the earlier ones are still
 * open (a 2025 server may ask many at once and wait for all of them, so none may wait for another's
 * answer), then the outcome once every push has settled.
 */
export async function toLegacyHost(
  side: HostSide,
  server: Server,
  ctx: ServerContext,
  call: GatewayCall,
  modes: Set<string>,
  served: Set<string> = new Set(),
) {
  const owed = new OwedCompletions();
  // A step lists the questions still open too: each is pushed once.
  const seen = new WeakSet<Question>();
  const pushes = new Set<Promise<void>>();
  for (;;) {
    const step = await call.next();
    // Before the outcome: a host learns its URL step is done while its call is still open.
    for (const elicitationId of owed.due(step))
      await ctx.mcpReq
        .notify({ method: 'notifications/elicitation/complete', params: { elicitationId } })
        .catch(() => undefined);
    if (step.kind !== 'questions') {
      await Promise.all(pushes);
      return outcome(step);
    }
    const fresh = step.questions.filter((question) => !seen.has(question));
    for (const question of fresh) seen.add(question);
    for (const question of askable(side, call, servable(fresh, served), modes)) {
      const pushed = push(side, server, ctx, call, question, owed);
      pushes.add(pushed);
      void pushed.finally(() => pushes.delete(pushed));
    }
  }
}
