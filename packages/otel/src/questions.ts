/**
 * One question span and its metrics per Request, from whichever source sees it first: the bridge's
 * 'request'/'verdict' events or an instrumented waitFor (both may see the same Request: its id
 * decides).
 *
 * Invariants:
 * - A question is attributed to a call only when exactly one live call can have asked it (same
 *   attachment, server, era and tool/prompt/resource); otherwise it has no call parent.
 * - A question the bridge asked ends with the bridge's verdict on its Answer ('verdict' event): an
 *   accepted form whose data fails its schema is `invalid` (asked again, or the question ended),
 *   whatever the instrumented waitFor saw. A question only an instrumented waitFor saw ends with
 *   the Answer as given (nothing checks it there).
 * - Only facts of the Request are recorded (see attributes.ts), never the answer's content.
 */
import {
  context as contextApi,
  SpanKind,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { Answer, Request } from '@waitfor/core';
import type { AnswerVerdict, ExtensionHost } from '@waitfor/mcp-bridge';
import {
  ATTEMPT,
  ERA,
  KIND,
  OUTCOME,
  outcomeOf,
  PROMPT_NAME,
  questionAttributes,
  RESOURCE_URI,
  SERVER,
  TOOL_NAME,
  type Outcome,
} from './attributes';
import type { Instruments } from './instruments';
import type { LiveCall } from './liveCall';

interface OpenQuestion {
  /** Asked by a bridge, whose verdict ends it. */
  bridged: boolean;
  span: Span | undefined;
  instruments: Instruments | undefined;
  call: LiveCall | undefined;
  started: number;
  metric: Attributes;
}

/** Tracks open questions for one telemetry instance. */
export interface QuestionTracker {
  begin(
    request: Request,
    host: ExtensionHost | undefined,
    tracer: Tracer | undefined,
    instruments: Instruments | undefined,
  ): void;
  /**
   * An instrumented waitFor's end (`answer` undefined: aborted, or the waitFor threw); a question a
   * bridge asked waits for that bridge's verdict instead.
   */
  settle(request: Request, answer: Answer | undefined): void;
  /** The bridge's verdict on the Answer to `request` (its 'verdict' event): the question ends. */
  judge(request: Request, verdict: AnswerVerdict): void;
}

/** What a question's origin and its call's attributes must agree on (when the origin names it). */
const matched = [SERVER, ERA, TOOL_NAME, PROMPT_NAME, RESOURCE_URI];

/** The one live call that can have asked a question, else undefined (none, or ambiguous). */
function attribute(
  calls: ReadonlySet<LiveCall>,
  attributes: Attributes,
  host: ExtensionHost | undefined,
): LiveCall | undefined {
  let found: LiveCall | undefined;
  for (const call of calls) {
    if (host !== undefined && call.host !== host) continue;
    if (matched.some((name) => name in attributes && call.attributes[name] !== attributes[name]))
      continue;
    if (found !== undefined) return undefined;
    found = call;
  }
  return found;
}

/** Create the tracker of one telemetry instance over its set of live calls. */
export function createQuestionTracker(calls: ReadonlySet<LiveCall>): QuestionTracker {
  const open = new Map<string, OpenQuestion>();

  /** End the open question of `request` with `outcome` (at most once). */
  const finish = (request: Request, outcome: Outcome) => {
    // Nothing open (always so without an SDK): no id to hash.
    const question = open.size === 0 ? undefined : open.get(request?.id);
    if (question === undefined) return;
    open.delete(request.id);
    const at = Date.now();
    question.instruments?.open.add(-1, question.metric);
    if (question.call !== undefined) question.call.open -= 1;
    const labelled = { ...question.metric, [OUTCOME]: outcome };
    question.instruments?.outcomes.add(1, labelled);
    question.instruments?.duration.record((at - question.started) / 1000, labelled);
    question.span?.setAttribute(OUTCOME, outcome);
    question.span?.end(at);
  };

  return {
    begin(request, host, tracer, instruments) {
      if (typeof request?.id !== 'string' || open.has(request.id)) return;
      const attributes = questionAttributes(request);
      const call = attribute(calls, attributes, host);
      const kind = attributes[KIND];
      const metric: Attributes = { [SERVER]: attributes[SERVER] ?? 'unknown', [KIND]: kind };
      const first = attributes[ATTEMPT] === 1;
      instruments?.open.add(1, metric);
      if (!first) instruments?.reasks.add(1, metric);
      if (call !== undefined) {
        call.questions += 1;
        // A round's questions are asked together; the next round's only once they are all answered.
        if (call.attributes[ERA] === 'modern' && first && call.open === 0) call.rounds += 1;
        call.open += 1;
      }
      const started = Date.now();
      const span = tracer?.startSpan(
        `waitfor.question ${String(kind)}`,
        { kind: SpanKind.INTERNAL, attributes, startTime: started },
        call?.context ?? contextApi.active(),
      );
      const bridged = host !== undefined;
      open.set(request.id, { bridged, span, instruments, call, started, metric });
    },

    settle(request, answer) {
      if (open.size > 0 && open.get(request?.id)?.bridged === false)
        finish(request, outcomeOf(answer));
    },

    judge: finish,
  };
}
