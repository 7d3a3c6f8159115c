/**
 * Trace context in an MCP request's `params._meta`, as the MCP semantic conventions propagate
 * it: through the configured propagator (the option, else the global one), so `traceparent`,
 * `tracestate` and `baggage` — or whatever it writes — travel unprefixed. Written by every call,
 * read back when a call arrives already carrying one: a durable suspension keeps the call's
 * params, so a resumed call (another process) finds its original trace.
 *
 * Invariants: without a configured propagator (the API's no-op has no fields) the W3C
 * `traceparent` alone is written and read, and only well-formed values are read (version 00,
 * non-zero ids, lower-case hex, fixed length); the carrier's own string keys only are read; `_meta`
 * is replaced, never mutated (the caller's object stays theirs), and the keys a propagator writes
 * are cleared first, so nothing of an earlier trace is left beside the new one.
 */
import {
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type SpanContext,
  type TextMapGetter,
  type TextMapPropagator,
} from '@opentelemetry/api';
import { isRecord } from './attributes';

type Carrier = Record<string, unknown>;

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** Own string values only: the carrier is params a caller or a stored suspension gave. */
const getter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  },
};

/** The `_meta` of params when it is a plain record. */
const metaOf = (params: Carrier): Carrier | undefined => {
  const meta = Object.hasOwn(params, '_meta') ? params['_meta'] : undefined;
  return isRecord(meta) ? meta : undefined;
};

/** The propagator to use: the given one, else the global one; undefined for the API's no-op. */
const propagatorOf = (given: TextMapPropagator | undefined): TextMapPropagator | undefined => {
  const chosen = given ?? propagation;
  return chosen.fields().length > 0 ? chosen : undefined;
};

/** The remote span context a `traceparent` names, if it is well formed. */
function parseTraceparent(value: string | undefined): SpanContext | undefined {
  const match = value === undefined ? null : TRACEPARENT.exec(value);
  if (match === null) return undefined;
  return {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16) & 1,
    isRemote: true,
  };
}

/**
 * The context a call's `params._meta` carries (its remote span, and what else the propagator
 * reads, e.g. baggage), on an empty context; undefined when it names no valid span.
 */
export function extractContext(
  params: Carrier,
  given: TextMapPropagator | undefined,
): Context | undefined {
  const meta = metaOf(params);
  if (meta === undefined) return undefined;
  const propagator = propagatorOf(given);
  const remote = parseTraceparent(getter.get(meta, 'traceparent') as string | undefined);
  const found =
    propagator === undefined
      ? remote && trace.setSpanContext(ROOT_CONTEXT, remote)
      : propagator.extract(ROOT_CONTEXT, meta, getter);
  const span = found && trace.getSpanContext(found);
  return span !== undefined && isSpanContextValid(span) ? found : undefined;
}

/** Write the trace context of `context` (its span: `span`) into a new `params._meta`. */
export function injectContext(
  params: Carrier,
  context: Context,
  span: SpanContext,
  given: TextMapPropagator | undefined,
): void {
  const meta: Carrier = { ...metaOf(params) };
  const propagator = propagatorOf(given);
  if (propagator === undefined) {
    // Only the sampled flag is defined: the flags are 00 or 01.
    meta['traceparent'] = `00-${span.traceId}-${span.spanId}-0${span.traceFlags & 1}`;
  } else {
    for (const field of propagator.fields()) delete meta[field];
    propagator.inject(context, meta, {
      set: (carrier, key, value) => {
        carrier[key] = value;
      },
    });
  }
  params['_meta'] = meta;
}
