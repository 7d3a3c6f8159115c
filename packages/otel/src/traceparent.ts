/**
 * W3C trace context in an MCP request's `params._meta` (as the MCP semantic conventions propagate
 * it): written by every call, read back when a call arrives already carrying one — a durable
 * suspension keeps the call's params, so a resumed call (another process) finds its original trace.
 *
 * Invariants: only well-formed `traceparent` values are read (version 00, non-zero ids, lower-case
 * hex, fixed length); `_meta` is replaced, never mutated (the caller's object stays theirs).
 */
import { isSpanContextValid, type SpanContext } from '@opentelemetry/api';
import { isRecord } from './attributes';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The `_meta` of params when it is a plain record. */
const metaOf = (params: Record<string, unknown>): Record<string, unknown> | undefined => {
  const meta = Object.hasOwn(params, '_meta') ? params['_meta'] : undefined;
  return isRecord(meta) ? meta : undefined;
};

/** The remote span context a call's `params._meta.traceparent` names, if it is well formed. */
export function extractTraceparent(params: Record<string, unknown>): SpanContext | undefined {
  const meta = metaOf(params);
  const value =
    meta !== undefined && Object.hasOwn(meta, 'traceparent') ? meta['traceparent'] : undefined;
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value);
  if (match === null) return undefined;
  const context: SpanContext = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16) & 1,
    isRemote: true,
  };
  return isSpanContextValid(context) ? context : undefined;
}

/** Write `context` as `params._meta.traceparent` (a new `_meta`, keeping the other keys). */
export function injectTraceparent(params: Record<string, unknown>, context: SpanContext): void {
  params['_meta'] = {
    ...metaOf(params),
    // Only the sampled flag is defined: the flags are 00 or 01.
    traceparent: `00-${context.traceId}-${context.spanId}-0${context.traceFlags & 1}`,
  };
}
