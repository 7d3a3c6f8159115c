import type { AbortSignalLike, Answer, Request, RequestOrigin } from '../types';
import { WaitforError } from '../waitforError';
import { checkRequests } from '../round/checkRequests';
import { jsonUnsafePath, type JsonValue } from './jsonSafe';
import { isPending, type Pending } from './pending';
import { createSuspension, type ToolSuspension } from './suspension';

/** What a tool is handed besides its args: the Answers of the last round and the state it kept. */
export interface ToolContext {
  /** The Answers to the Requests of the last Pending, keyed by input key (empty on the first run). */
  answers: Readonly<Record<string, Answer>>;
  /** The state of the last Pending, as given (undefined on the first run or when none was given). */
  state: JsonValue | undefined;
  /** How many Pending rounds this run has seen. */
  round: number;
  /** Aborted when the run is. */
  signal: AbortSignalLike | undefined;
}

/** A host's own tool: returns its result, or `pending(...)` when it needs a person first. */
export type Tool<Args, Result> = (
  args: Args,
  context: ToolContext,
) => Result | Pending | Promise<Result | Pending>;

/** The end of a durable run: the tool's result, or a JSON-safe suspension to resume later. */
export type ToolOutcome<Result> =
  { status: 'complete'; result: Result } | { status: 'suspended'; suspension: ToolSuspension };

/** Where a loop starts: a first run (no answers, round 0) or a resumed one. */
export interface LoopStart<Args> {
  args: Args;
  answers: Readonly<Record<string, Answer>>;
  state: JsonValue | undefined;
  round: number;
}

/** How a loop runs; without `ask` it is durable and suspends at the first round with Requests. */
export interface LoopOptions {
  signal: AbortSignalLike | undefined;
  origin: RequestOrigin | undefined;
  maxRounds: number;
  maxRequests: number;
  ask?: (requests: Record<string, Request>) => Promise<Record<string, Answer>>;
}

/** The typed error of an aborted run; the signal's reason is its cause. */
export const abortedError = (signal: AbortSignalLike | undefined): WaitforError =>
  new WaitforError('aborted', 'The tool run was aborted', { cause: signal?.reason });

/** Throws `code` at `path` unless `value` is JSON-safe. */
export function assertJsonSafe(
  value: unknown,
  code: 'invalid_pending' | 'invalid_options' | 'invalid_suspension',
  path: string,
): void {
  const unsafe = jsonUnsafePath(value, path);
  if (unsafe !== undefined)
    throw new WaitforError(code, `${unsafe} is not JSON-safe`, { path: unsafe });
}

/** Checks what a tool returned as Pending: its Requests and its state. */
function checkPending(value: Pending, maxRequests: number): Record<string, Request> {
  const requests = checkRequests(value.requests, maxRequests, 'invalid_pending');
  if (value.state !== undefined) assertJsonSafe(value.state, 'invalid_pending', 'state');
  return requests;
}

/** The Requests with `origin` (and their input key) set on each that names no origin itself. */
function withOrigin(
  requests: Record<string, Request>,
  origin: RequestOrigin | undefined,
): Record<string, Request> {
  if (origin === undefined) return requests;
  for (const key of Object.keys(requests)) {
    const request = requests[key]!;
    if (request.data?.origin === undefined)
      requests[key] = {
        ...request,
        data: { ...request.data, origin: { ...origin, inputKey: key } },
      };
  }
  return requests;
}

/**
 * Runs a tool until it returns a result: each Pending round is checked, counted against
 * `maxRounds` (then `rounds_exceeded`) and asked (or, durable, suspended), and the tool runs again
 * with the Answers and the state. An abort ends the run with `aborted` before the next step.
 */
export async function runLoop<Args, Result>(
  tool: Tool<Args, Result>,
  start: LoopStart<Args>,
  options: LoopOptions,
): Promise<ToolOutcome<Result>> {
  const { signal } = options;
  let { answers, state, round } = start;
  for (;;) {
    if (signal?.aborted) throw abortedError(signal);
    const returned = await tool(start.args, { answers, state, round, signal });
    if (!isPending(returned)) return { status: 'complete', result: returned };
    const requests = withOrigin(checkPending(returned, options.maxRequests), options.origin);
    round += 1;
    if (round > options.maxRounds) {
      throw new WaitforError(
        'rounds_exceeded',
        `The tool still needed answers after ${options.maxRounds} rounds`,
      );
    }
    if (signal?.aborted) throw abortedError(signal);
    state = returned.state;
    if (options.ask === undefined) {
      const suspension = createSuspension(start.args, state, requests, round);
      return { status: 'suspended', suspension };
    }
    answers = await options.ask(requests);
    if (signal?.aborted) throw abortedError(signal);
  }
}
