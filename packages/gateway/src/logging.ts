/**
 * Log lines (`notifications/message`) across the eras.
 *
 * Invariants:
 * - A 2025 host sets its level once (`logging/setLevel`); a 2026-07-28 host per request (`_meta`
 *   `io.modelcontextprotocol/logLevel`). A relayed call keeps the level of its host at its start.
 * - A 2026-07-28 server logs during a request only at that request's level: the gateway sends the
 *   call's level with the upstream call, and none when the host asked for none (no lines then, as
 *   the 2026-07-28 rule wants). A 2025 server is told a 2025 host's level on that host's own
 *   upstream session, and filters its lines itself.
 * - A line that names no host (a 2026-07-28 server's, or a 2025 server's on a call's own session)
 *   goes to the open calls whose level admits it, each inside its host's request, before its result.
 */
import {
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { isRecord } from '@waitfor/runtime';

/** RFC 5424 severities, least severe first (the order the spec's LoggingLevel lists them). */
const severities: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

const isLoggingLevel = (value: unknown): value is LoggingLevel =>
  severities.includes(value as LoggingLevel);

/** Whether a line at `level` goes to a call made at `threshold` (none: the host asked for no lines). */
export function admits(threshold: LoggingLevel | undefined, level: unknown): boolean {
  if (threshold === undefined || !isLoggingLevel(level)) return false;
  return severities.indexOf(level) >= severities.indexOf(threshold);
}

/** The level a 2026-07-28 host's request asks for in its `_meta` envelope, if a valid one. */
export function requestedLevel(ctx: ServerContext): LoggingLevel | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const level = isRecord(envelope) ? envelope[LOG_LEVEL_META_KEY] : undefined;
  return isLoggingLevel(level) ? level : undefined;
}

/** The `_meta` that asks a 2026-07-28 upstream for a call's log lines (none without a level). */
export const levelMeta = (level: LoggingLevel | undefined): Record<string, unknown> =>
  level === undefined ? {} : { _meta: { [LOG_LEVEL_META_KEY]: level } };

/** What a call's log lines go to: its level, and the host request's sink while one is open. */
export interface LoggedCall {
  logLevel: LoggingLevel | undefined;
  log: ((params: Record<string, unknown>) => void) | undefined;
}

/** Hand a line that names no host to each open call whose level admits it. */
export function logToCalls(calls: Iterable<LoggedCall>, params: Record<string, unknown>): void {
  for (const call of calls) if (admits(call.logLevel, params['level'])) call.log?.(params);
}
