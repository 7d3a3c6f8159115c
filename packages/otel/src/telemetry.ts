/**
 * createTelemetry: OpenTelemetry traces and metrics for bridge calls and the questions they ask.
 *
 * Invariants:
 * - Without an OpenTelemetry SDK (the API's no-op tracer provider and meter) every hook returns at
 *   once: no span, no map entry, no params change.
 * - A call span per tools/call, prompts/get and resources/read; its W3C `traceparent` goes into
 *   the call's `params._meta` (a new `_meta` object), which a durable suspension keeps: a call that
 *   arrives carrying one (a resume, in this process or another) continues that trace — as a child
 *   when nothing else is active, else as a link.
 * - Nothing the person answered is read or recorded (the question tracker sees Requests and
 *   Answers' `ok`/`reason` only); errors are recorded by type, never by message.
 */
import {
  context as contextApi,
  isSpanContextValid,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Link,
  type Meter,
  type Tracer,
} from '@opentelemetry/api';
import type { Answer, Request, WaitFor, WaitForContext } from '@waitfor/core';
import { MODERN_PROTOCOL_VERSION, type BridgeExtension, type CallInfo } from '@waitfor/mcp-bridge';
import {
  bounded,
  isRecord,
  CALL_STATUS,
  ERA,
  ERROR_TYPE,
  METHOD,
  OPERATION_NAME,
  PROMPT_NAME,
  PROTOCOL_VERSION,
  QUESTIONS,
  RESOURCE_URI,
  ROUNDS,
  SERVER,
  TOOL_NAME,
  withoutQuery,
} from './attributes';
import { instrumentsOf, SCOPE, type Instruments } from './instruments';
import type { LiveCall } from './liveCall';
import { createQuestionTracker } from './questions';
import { extractTraceparent, injectTraceparent } from './traceparent';

/** Options of createTelemetry. */
export interface TelemetryOptions {
  /** The tracer to use (default: the global provider's, looked up per call). */
  tracer?: Tracer;
  /** The meter to use (default: the global provider's, looked up per call). */
  meter?: Meter;
  /** Write the call's `traceparent` into `params._meta` (default true). */
  propagate?: boolean;
}

/** A bridge extension that records calls and questions, and instruments waitFors. */
export interface Telemetry extends BridgeExtension {
  /** Wrap a waitFor (an inbox's, a host tool's) so every question it answers is recorded. */
  instrument(waitFor: WaitFor): WaitFor;
}

// The API's no-op delegate: a global tracer provider delegating to it means no SDK is registered.
const noopDelegate = new ProxyTracerProvider().getDelegate();

/** The tracer to use now, or undefined when no SDK is registered (checked per call: SDKs come late). */
function tracerOf(given: Tracer | undefined): Tracer | undefined {
  if (given !== undefined) return given;
  const provider = trace.getTracerProvider() as Partial<ProxyTracerProvider>;
  if (provider.getDelegate?.() === noopDelegate) return undefined;
  return trace.getTracer(SCOPE);
}

/** The failure's type: a typed error's string `code` (BridgeError, LegacySpecError), else its name. */
function errorTypeOf(error: unknown): string {
  const typed = isRecord(error) ? error : {};
  return bounded(typed['code']) ?? bounded(typed['name']) ?? '_OTHER';
}

/** The call span's attributes; tool, prompt and resource as a question's origin names them. */
function callAttributes(call: CallInfo): Attributes {
  const params = call.params;
  const name = Object.hasOwn(params, 'name') ? bounded(String(params['name'])) : undefined;
  const attributes: Attributes = {
    [METHOD]: call.method,
    [SERVER]: bounded(call.serverName) ?? '',
    [ERA]: call.era,
  };
  if (call.era === 'modern') attributes[PROTOCOL_VERSION] = MODERN_PROTOCOL_VERSION;
  if (call.method === 'tools/call' && name !== undefined) {
    attributes[TOOL_NAME] = name;
    attributes[OPERATION_NAME] = 'execute_tool';
  }
  if (call.method === 'prompts/get' && name !== undefined) attributes[PROMPT_NAME] = name;
  const uri = Object.hasOwn(params, 'uri') ? withoutQuery(params['uri']) : undefined;
  if (call.method === 'resources/read' && uri !== undefined) attributes[RESOURCE_URI] = uri;
  return attributes;
}

/** Create the telemetry extension; pass it in `extensions` and wrap waitFors with `instrument`. */
export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  const calls = new Set<LiveCall>();
  const questions = createQuestionTracker(calls);
  const propagate = options.propagate ?? true;

  /** The tracer and instruments to record with now; undefined without an SDK (then do nothing). */
  const recorders = (): [Tracer | undefined, Instruments | undefined] | undefined => {
    const tracer = tracerOf(options.tracer);
    const instruments = instrumentsOf(options.meter);
    return tracer === undefined && instruments === undefined ? undefined : [tracer, instruments];
  };

  const recordCall = async (
    call: CallInfo,
    next: () => Promise<unknown>,
    [tracer, instruments]: [Tracer | undefined, Instruments | undefined],
  ): Promise<unknown> => {
    const attributes = callAttributes(call);
    const live: LiveCall = {
      host: call.host,
      attributes,
      context: undefined,
      open: 0,
      rounds: 0,
      questions: 0,
    };
    const remote = extractTraceparent(call.params);
    const outer = contextApi.active();
    let parent = outer;
    const links: Link[] = [];
    if (remote !== undefined) {
      const current = trace.getSpanContext(outer);
      if (current !== undefined && isSpanContextValid(current)) links.push({ context: remote });
      else parent = trace.setSpanContext(outer, remote);
    }
    const target = attributes[TOOL_NAME] ?? attributes[PROMPT_NAME];
    const span = tracer?.startSpan(
      target === undefined ? call.method : `${call.method} ${String(target)}`,
      { kind: SpanKind.CLIENT, attributes, links },
      parent,
    );
    if (span !== undefined && span.isRecording()) {
      live.context = trace.setSpan(parent, span);
      if (propagate) injectTraceparent(call.params, span.spanContext());
    }
    calls.add(live);
    let rounds = call.era === 'modern' ? () => live.rounds : undefined;
    try {
      const outcome = await contextApi.with(live.context ?? outer, next);
      const suspension =
        call.era === 'modern' && isRecord(outcome) && outcome['status'] === 'suspended'
          ? outcome['suspension']
          : undefined;
      span?.setAttribute(CALL_STATUS, suspension === undefined ? 'complete' : 'suspended');
      // A suspension counts its rounds itself (durable calls ask no one in this process).
      if (isRecord(suspension) && typeof suspension['round'] === 'number') {
        const round = suspension['round'];
        rounds = () => round;
      }
      return outcome;
    } catch (error) {
      span?.setAttribute(ERROR_TYPE, errorTypeOf(error));
      span?.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      calls.delete(live);
      if (rounds !== undefined) {
        instruments?.rounds.record(rounds(), {
          [METHOD]: call.method,
          [SERVER]: attributes[SERVER],
        });
        span?.setAttribute(ROUNDS, rounds());
      }
      span?.setAttribute(QUESTIONS, live.questions);
      span?.end();
    }
  };

  const recordQuestion = async (
    waitFor: WaitFor,
    request: Request,
    waitContext: WaitForContext | undefined,
    [tracer, instruments]: [Tracer | undefined, Instruments | undefined],
  ): Promise<Answer> => {
    questions.begin(request, undefined, tracer, instruments);
    const signal = waitContext?.signal;
    // A waitFor that ignores its signal must not keep the question open in the records.
    const onAbort = () => questions.settle(request, undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted === true) onAbort();
    try {
      const answer = await waitFor(request, waitContext);
      questions.settle(request, answer);
      return answer;
    } catch (error) {
      questions.settle(request, undefined);
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };

  return {
    name: 'waitfor-otel',

    setup(host) {
      const removers = [
        host.on('request', (request) => {
          const recording = recorders();
          if (recording !== undefined) questions.begin(request, host, ...recording);
        }),
        host.on('answer', ({ request, answer }) => questions.settle(request, answer)),
      ];
      return () => {
        for (const remove of removers) remove();
      };
    },

    // Without an SDK the hooks hand over at once: no promise, no record, no params change.
    aroundCall(call, next) {
      const recording = recorders();
      return recording === undefined ? next() : recordCall(call, next, recording);
    },

    instrument(waitFor) {
      return (request, waitContext) => {
        const recording = recorders();
        return recording === undefined
          ? waitFor(request, waitContext)
          : recordQuestion(waitFor, request, waitContext, recording);
      };
    },
  };
}

/** Wrap one waitFor with a telemetry of its own (shortcut for `createTelemetry(options).instrument`). */
export function instrumentWaitFor(waitFor: WaitFor, options?: TelemetryOptions): WaitFor {
  return createTelemetry(options).instrument(waitFor);
}
