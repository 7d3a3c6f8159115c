/**
 * One question span and its metrics per Request, from whichever source sees it first: the bridge's
 * 'request'/'answer' events or an instrumented waitFor (both may see the same Request: its id
 * decides).
 *
 * Invariants:
 * - A question is attributed to a call only when exactly one live call can have asked it (same
 *   attachment, server, era and tool/prompt/resource); otherwise it has no call parent.
 * - An accepted form may be invalid: the bridge then asks again within the same turn of the event
 *   loop (a new Request, `data.attempt` + 1). Its outcome is decided one macrotask after the
 *   answer: `invalid` when that re-ask came, else `accepted`. The span still ends at the answer.
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
import type { ExtensionHost } from '@waitfor/mcp-bridge';
import {
  ATTEMPT,
  ERA,
  INPUT_KEY,
  KIND,
  MODE,
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
  form: boolean;
  span: Span | undefined;
  instruments: Instruments | undefined;
  call: LiveCall | undefined;
  started: number;
  metric: Attributes;
  key: string;
}

/** An accepted form answer whose validity is not known yet. */
interface Verdict {
  invalid: boolean;
}

/** Tracks open questions for one telemetry instance. */
export interface QuestionTracker {
  begin(
    request: Request,
    host: ExtensionHost | undefined,
    tracer: Tracer | undefined,
    instruments: Instruments | undefined,
  ): void;
  /** `answer` undefined: the wait ended without one (aborted, or the waitFor threw). */
  settle(request: Request, answer: Answer | undefined): void;
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

/** The global timer (this package is typed without DOM or Node globals), read when it is called. */
declare function setTimeout(run: () => void, delay: number): unknown;

/** Create the tracker of one telemetry instance over its set of live calls. */
export function createQuestionTracker(calls: ReadonlySet<LiveCall>): QuestionTracker {
  const open = new Map<string, OpenQuestion>();
  // Accepted forms waiting for their verdict, by what a re-ask of them shares.
  const verdicts = new Map<string, Verdict>();

  const finish = (question: OpenQuestion, outcome: Outcome, at: number) => {
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
      // The prompt is only a key in memory (what a re-ask shares); it is never recorded.
      const key = [attributes[SERVER], kind, request.prompt, attributes[INPUT_KEY]].join('\u0000');
      instruments?.open.add(1, metric);
      if (!first) {
        instruments?.reasks.add(1, metric);
        const verdict = verdicts.get(key);
        if (verdict !== undefined) {
          verdict.invalid = true;
          verdicts.delete(key);
        }
      }
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
      const form = attributes[MODE] === 'form';
      open.set(request.id, { form, span, instruments, call, started, metric, key });
    },

    settle(request, answer) {
      // Nothing open (always so without an SDK): no id to hash.
      const question = open.size === 0 ? undefined : open.get(request?.id);
      if (question === undefined) return;
      open.delete(request.id);
      const at = Date.now();
      question.instruments?.open.add(-1, question.metric);
      if (question.call !== undefined) question.call.open -= 1;
      const outcome = outcomeOf(answer);
      if (outcome !== 'accepted' || !question.form) {
        finish(question, outcome, at);
        return;
      }
      const verdict: Verdict = { invalid: false };
      verdicts.set(question.key, verdict);
      // Read when used, so a host's (or a test's) replaced timers apply.
      setTimeout(() => {
        if (verdicts.get(question.key) === verdict) verdicts.delete(question.key);
        finish(question, verdict.invalid ? 'invalid' : 'accepted', at);
      }, 0);
    },
  };
}
