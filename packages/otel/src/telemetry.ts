/**
 * createTelemetry: OpenTelemetry traces and metrics for bridge calls and the questions they ask.
 *
 * Invariants:
 * - Without an OpenTelemetry SDK (the API's no-op tracer provider and meter) every hook returns at
 *   once: no span, no map entry, no params change.
 * - A call span per tools/call, prompts/get and resources/read, named and labelled as the MCP
 *   semantic conventions say; its trace context goes into the call's `params._meta` through the
 *   configured propagator (see propagation.ts), which a durable suspension keeps: a call that
 *   arrives carrying one (a resume, in this process or another) continues that trace — as a child
 *   when nothing else is active, else as a link.
 * - A call fails when it throws (`error.type`: the JSON-RPC code, else the local error's) or when
 *   a tool answers `isError` (`tool_error`); the span's status is then ERROR, without a message.
 * - Nothing the person answered is read or recorded (the question tracker sees Requests and
 *   Answers' `ok`/`reason` only); errors are recorded by type, never by message (a server writes
 *   it, and may put what the person typed in it).
 */
import {
  context as contextApi,
  isSpanContextValid,
  propagation,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Meter,
  type Span,
  type TextMapPropagator,
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
  STATUS_CODE,
  TOOL_NAME,
  withoutQuery,
} from './attributes';
import { instrumentsOf, SCOPE, type Instruments } from './instruments';
import type { LiveCall } from './liveCall';
import { extractContext, injectContext } from './propagation';
import { createQuestionTracker, type QuestionTracker } from './questions';
import { negotiatedVersion, targetAttributes, type TelemetryServer } from './server';

/** Options of createTelemetry. */
export interface TelemetryOptions {
  /** The tracer to use (default: the global provider's, looked up per call). */
  tracer?: Tracer;
  /** The meter to use (default: the global provider's, looked up per call). */
  meter?: Meter;
  /**
   * The propagator that writes the call's trace context into `params._meta` (default: the global
   * one, looked up per call; with none configured, the W3C `traceparent` alone).
   */
  propagator?: TextMapPropagator;
  /** Write the call's trace context into `params._meta` (default true). */
  propagate?: boolean;
  /** The one server this telemetry's calls go to: `server.*`, `network.*`, `mcp.protocol.version`. */
  server?: TelemetryServer;
}

/** A bridge extension that records calls and questions, and instruments waitFors. */
export interface Telemetry extends BridgeExtension {
  /** Wrap a waitFor (an inbox's, a host tool's) so every question it answers is recorded. */
  instrument(waitFor: WaitFor): WaitFor;
}

type Recorders = [Tracer | undefined, Instruments | undefined];

// The API's no-op delegate: a global tracer provider delegating to it means no SDK is registered.
const noopDelegate = new ProxyTracerProvider().getDelegate();

/** The tracer to use now, or undefined when no SDK is registered (checked per call: SDKs come late). */
function tracerOf(given: Tracer | undefined): Tracer | undefined {
  if (given !== undefined) return given;
  const provider = trace.getTracerProvider() as Partial<ProxyTracerProvider>;
  if (provider.getDelegate?.() === noopDelegate) return undefined;
  return trace.getTracer(SCOPE);
}

/**
 * `error.type` of a failed call, as the conventions name it: the JSON-RPC error code (also as
 * `rpc.response.status_code`), else a typed error's string `code` (BridgeError, LegacySpecError),
 * else its name. Never its message: a server writes it.
 */
function errorAttributes(error: unknown): Attributes {
  const typed = isRecord(error) ? error : {};
  const rpc = typed['rpc'];
  const code = isRecord(rpc) && Number.isInteger(rpc['code']) ? String(rpc['code']) : undefined;
  if (code !== undefined) return { [ERROR_TYPE]: code, [STATUS_CODE]: code };
  return { [ERROR_TYPE]: bounded(typed['code']) ?? bounded(typed['name']) ?? '_OTHER' };
}

/**
 * A call's attributes as the conventions name them (all that `mcp.client.operation.duration`
 * takes), and its span's: those, waitfor's own and the resource URI (opt-in on the metric, for its
 * cardinality). Tool, prompt and resource as a question's origin names them.
 */
function callAttributes(
  call: CallInfo,
  server: Attributes,
  version: string | undefined,
): [Attributes, Attributes] {
  const params = call.params;
  const name = Object.hasOwn(params, 'name') ? bounded(String(params['name'])) : undefined;
  const conventional: Attributes = { ...server, [METHOD]: call.method };
  version ??= call.era === 'modern' ? MODERN_PROTOCOL_VERSION : undefined;
  if (version !== undefined) conventional[PROTOCOL_VERSION] = version;
  if (call.method === 'tools/call' && name !== undefined) {
    conventional[TOOL_NAME] = name;
    conventional[OPERATION_NAME] = 'execute_tool';
  }
  if (call.method === 'prompts/get' && name !== undefined) conventional[PROMPT_NAME] = name;
  const attributes: Attributes = {
    ...conventional,
    [SERVER]: bounded(call.serverName) ?? '',
    [ERA]: call.era,
  };
  const uri = Object.hasOwn(params, 'uri') ? withoutQuery(params['uri']) : undefined;
  if (call.method === 'resources/read' && uri !== undefined) attributes[RESOURCE_URI] = uri;
  return [conventional, attributes];
}

/**
 * The call's parent context and links: a trace its params carry is the parent when no span is
 * active (a resumed call), else a link beside the active span.
 */
function parentOf(
  call: CallInfo,
  outer: Context,
  propagator: TextMapPropagator | undefined,
): [Context, Link[]] {
  const remote = extractContext(call.params, propagator);
  if (remote === undefined) return [outer, []];
  const current = trace.getSpanContext(outer);
  if (current !== undefined && isSpanContextValid(current))
    return [outer, [{ context: trace.getSpanContext(remote)! }]];
  // What else travelled with it (baggage) goes on with the call.
  const baggage = propagation.getBaggage(remote);
  const parent = trace.setSpan(outer, trace.getSpan(remote)!);
  return [baggage === undefined ? parent : propagation.setBaggage(parent, baggage), []];
}

/** The result of a call's outcome (a durable call's `result`), when it is a record. */
const resultOf = (outcome: unknown): Record<string, unknown> | undefined =>
  isRecord(outcome) && outcome['status'] === 'complete' && isRecord(outcome['result'])
    ? outcome['result']
    : isRecord(outcome)
      ? outcome
      : undefined;

/** A call started: its record, its span and what its metric is labelled with. */
interface StartedCall {
  live: LiveCall;
  span: Span | undefined;
  conventional: Attributes;
  started: number;
}

/**
 * Start a call's span (a child of the active span, or of the trace its params carry) and write its
 * trace context into the params.
 */
function startCall(
  call: CallInfo,
  tracer: Tracer | undefined,
  options: TelemetryOptions,
  server: Attributes,
): StartedCall {
  // The revision the host's client says, else the one the bridge's client negotiated.
  const version = negotiatedVersion(options.server?.client) ?? call.host?.protocolVersion;
  const [conventional, attributes] = callAttributes(call, server, version);
  const live: LiveCall = {
    host: call.host,
    attributes,
    context: undefined,
    open: 0,
    rounds: 0,
    questions: 0,
  };
  const [parent, links] = parentOf(call, contextApi.active(), options.propagator);
  const target = attributes[TOOL_NAME] ?? attributes[PROMPT_NAME];
  const started = Date.now();
  const span = tracer?.startSpan(
    target === undefined ? call.method : `${call.method} ${String(target)}`,
    { kind: SpanKind.CLIENT, attributes, links, startTime: started },
    parent,
  );
  if (span !== undefined && span.isRecording()) {
    live.context = trace.setSpan(parent, span);
    if (options.propagate ?? true)
      injectContext(call.params, live.context, span.spanContext(), options.propagator);
  }
  return { live, span, conventional, started };
}

/** What one telemetry keeps: its options, the calls in flight, its questions, its server. */
interface TelemetryState {
  readonly options: TelemetryOptions;
  readonly calls: Set<LiveCall>;
  readonly questions: QuestionTracker;
  readonly server: Attributes;
}

/** What a call ended with, for its span and metric. */
interface CallEnd {
  failure: Attributes;
  /** Modern era: the rounds that asked someone (a suspension: its own count). */
  rounds: (() => number) | undefined;
}

/** A call's outcome read for its span: its status, a suspension's rounds, a tool's `isError`. */
function readOutcome(call: CallInfo, outcome: unknown, span: Span | undefined, end: CallEnd): void {
  const suspension =
    call.era === 'modern' && isRecord(outcome) && outcome['status'] === 'suspended'
      ? outcome['suspension']
      : undefined;
  span?.setAttribute(CALL_STATUS, suspension === undefined ? 'complete' : 'suspended');
  // A suspension counts its rounds itself (durable calls ask no one in this process).
  if (isRecord(suspension) && typeof suspension['round'] === 'number') {
    const round = suspension['round'];
    end.rounds = () => round;
  }
  // A tool that ran and failed answers with `isError`: the conventions' `tool_error`.
  if (call.method === 'tools/call' && resultOf(outcome)?.['isError'] === true)
    end.failure = { [ERROR_TYPE]: 'tool_error' };
}

/** End a call's span and record its metrics. */
function endCall(
  call: CallInfo,
  { live, span, conventional, started }: StartedCall,
  { failure, rounds }: CallEnd,
  instruments: Instruments | undefined,
): void {
  const ended = Date.now();
  if (ERROR_TYPE in failure) {
    span?.setAttributes(failure);
    span?.setStatus({ code: SpanStatusCode.ERROR });
  }
  if (rounds !== undefined) {
    instruments?.rounds.record(rounds(), {
      [METHOD]: call.method,
      [SERVER]: live.attributes[SERVER],
    });
    span?.setAttribute(ROUNDS, rounds());
  }
  instruments?.operation.record((ended - started) / 1000, { ...conventional, ...failure });
  span?.setAttribute(QUESTIONS, live.questions);
  span?.end(ended);
}

/** Record one call: its span around `next`, the trace context in its params, its metrics. */
async function recordCall(
  state: TelemetryState,
  call: CallInfo,
  next: () => Promise<unknown>,
  [tracer, instruments]: Recorders,
): Promise<unknown> {
  const started = startCall(call, tracer, state.options, state.server);
  const { live } = started;
  state.calls.add(live);
  const end: CallEnd = {
    failure: {},
    rounds: call.era === 'modern' ? () => live.rounds : undefined,
  };
  try {
    const outcome = await contextApi.with(live.context ?? contextApi.active(), next);
    readOutcome(call, outcome, started.span, end);
    return outcome;
  } catch (error) {
    end.failure = errorAttributes(error);
    throw error;
  } finally {
    state.calls.delete(live);
    endCall(call, started, end, instruments);
  }
}

/** Record one question an instrumented waitFor answers. */
async function recordQuestion(
  questions: QuestionTracker,
  waitFor: WaitFor,
  request: Request,
  waitContext: WaitForContext | undefined,
  [tracer, instruments]: Recorders,
): Promise<Answer> {
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
}

/** Create the telemetry extension; pass it in `extensions` and wrap waitFors with `instrument`. */
export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  const calls = new Set<LiveCall>();
  const questions = createQuestionTracker(calls);
  const state: TelemetryState = {
    options,
    calls,
    questions,
    server: targetAttributes(options.server?.target),
  };

  /** The tracer and instruments to record with now; undefined without an SDK (then do nothing). */
  const recorders = (): Recorders | undefined => {
    const tracer = tracerOf(options.tracer);
    const instruments = instrumentsOf(options.meter);
    return tracer === undefined && instruments === undefined ? undefined : [tracer, instruments];
  };

  return {
    name: 'waitfor-otel',

    setup(host) {
      const removers = [
        host.on('request', (request) => {
          const recording = recorders();
          if (recording !== undefined) questions.begin(request, host, ...recording);
        }),
        // The bridge's verdict ends its question (an accepted form may have failed its schema).
        host.on('verdict', ({ request, verdict }) => questions.judge(request, verdict)),
      ];
      return () => {
        for (const remove of removers) remove();
      };
    },

    // Without an SDK the hooks hand over at once: no promise, no record, no params change.
    aroundCall(call, next) {
      const recording = recorders();
      return recording === undefined ? next() : recordCall(state, call, next, recording);
    },

    instrument(waitFor) {
      return (request, waitContext) => {
        const recording = recorders();
        return recording === undefined
          ? waitFor(request, waitContext)
          : recordQuestion(questions, waitFor, request, waitContext, recording);
      };
    },
  };
}

/** Wrap one waitFor with a telemetry of its own (shortcut for `createTelemetry(options).instrument`). */
export function instrumentWaitFor(waitFor: WaitFor, options?: TelemetryOptions): WaitFor {
  return createTelemetry(options).instrument(waitFor);
}
