/**
 * Durable tool runs: instead of waiting, a run returns JSON-safe data — the pending Requests and
 * what the next run needs — and `resumeTool` finishes it later, possibly in another process.
 *
 * Invariants: a suspension survives JSON.stringify/parse unchanged; a stored one is untrusted and
 * checked whole before use (by the round engine, once); a resume hands the tool only Answers to
 * the suspension's own Requests, one each, and an invalid form answer is refused before the tool runs.
 */
import type { Request } from '../types';
import type { WaitforError } from '../waitforError';
import { checkQuestions, requestsOf } from '../round/checkRequests';
import { DEFAULT_MAX_REQUESTS } from '../round/defaults';
import { parseSuspension, type ParsedSuspension, type SuspensionShape } from '../round/suspension';
import { jsonUnsafePath, type JsonValue } from './jsonSafe';

/** The shape of suspensions this version writes and reads; others are refused (run the tool again). */
const VERSION = 1;

/** Everything needed to finish a suspended tool run later. JSON-safe. */
export interface ToolSuspension {
  version: 1;
  /** The tool's args, as the run was started with them. */
  args: JsonValue;
  /** The state of the pending round, as the tool gave it; absent when it gave none. */
  state?: JsonValue;
  /** The Requests a person must answer, keyed by input key. */
  requests: Record<string, Request>;
  /** How many Pending rounds the run has seen so far. */
  round: number;
}

/** Builds the suspension of a round (args and state already checked JSON-safe). */
export function createSuspension(
  args: unknown,
  state: JsonValue | undefined,
  requests: Record<string, Request>,
  round: number,
): ToolSuspension {
  // A plain copy: a null-prototype object is JSON-safe but compares unlike what JSON.parse gives.
  const suspension: ToolSuspension = {
    version: VERSION,
    args: args as JsonValue,
    requests: { ...requests },
    round,
  };
  if (state !== undefined) suspension.state = state;
  return suspension;
}

const keys = ['version', 'args', 'state', 'requests', 'round'];

/** A tool suspension's own fields: what the next run is handed besides the Answers. */
export interface ToolRun {
  args: JsonValue;
  state: JsonValue | undefined;
}

/** What a tool suspension looks like, for the round engine (`maxRequests`: most Requests in it). */
export function toolSuspensionShape(maxRequests: number): SuspensionShape<ToolRun> {
  return {
    version: VERSION,
    otherwise: 'run the tool again',
    read(value, fail) {
      for (const key of Object.keys(value)) if (!keys.includes(key)) fail(key, `${key} is unknown`);
      for (const key of ['args', 'state']) {
        const unsafe = jsonUnsafePath(value[key], key);
        if (unsafe !== undefined && !(key === 'state' && value.state === undefined))
          fail(unsafe, `${unsafe} is not JSON-safe`);
      }
      if (value.args === undefined) fail('args', 'args is missing');
      try {
        const questions = checkQuestions(value.requests, maxRequests, 'invalid_suspension');
        return {
          own: { args: value.args as JsonValue, state: value.state as JsonValue },
          questions,
        };
      } catch (error) {
        const inner = error as WaitforError;
        return fail(inner.path ?? 'requests', inner.message, error);
      }
    },
  };
}

/** The ToolSuspension a parsed one stands for (a plain copy). */
export const toolSuspensionOf = (parsed: ParsedSuspension<ToolRun>): ToolSuspension =>
  createSuspension(parsed.own.args, parsed.own.state, requestsOf(parsed.questions), parsed.round);

/**
 * Checks untrusted suspension data (e.g. read back from storage) and returns a copy; throws
 * WaitforError `invalid_suspension` whose path names the field (the underlying error as `cause`).
 */
export function parseToolSuspension(
  value: unknown,
  options: { maxRequests?: number } = {},
): ToolSuspension {
  const shape = toolSuspensionShape(options.maxRequests ?? DEFAULT_MAX_REQUESTS);
  return toolSuspensionOf(parseSuspension(value, shape));
}
