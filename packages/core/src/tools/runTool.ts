import { boundWaitFor } from '../boundWaitFor';
import { isRecord, nonEmpty } from '../check';
import type { AbortSignalLike, Answer, RequestOrigin, WaitFor } from '../types';
import { WaitforError } from '../waitforError';
import { DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_REQUESTS, DEFAULT_MAX_ROUNDS } from '../round/defaults';
import { resumeRound } from '../round/resumeRound';
import { askRound } from './askRound';
import { toolSuspensionShape } from './suspension';
import { assertJsonSafe, runLoop, type Tool, type ToolOutcome } from './toolLoop';

/** Options every tool run takes. */
export interface ToolRunOptions {
  /** Ends the run with WaitforError `aborted`; reaches the tool and every open question. */
  signal?: AbortSignalLike;
  /** Most Pending rounds before WaitforError `rounds_exceeded` (default 10). */
  maxRounds?: number;
  /** Most Requests in one Pending (default 32); more is WaitforError `invalid_pending`. */
  maxRequests?: number;
  /**
   * Who asks (e.g. `{ server: 'Deploy tool' }`), set with the input key as `inputKey` on every
   * Request that names no origin itself: UIs show it and policies decide by it.
   */
  origin?: RequestOrigin;
}

/** Options of runTool. */
export interface RunToolOptions extends ToolRunOptions {
  /** The host's one slot: every pending Request is asked through it. */
  waitFor: WaitFor;
  /** How many submissions of an invalid form a person gets before it ends cancelled (default 3). */
  maxAttempts?: number;
  /** The clock `expiresAt` is compared with (default Date.now). */
  now?: () => number;
}

const count = (options: object, key: string, fallback: number, least: number): number => {
  const value = (options as Record<string, unknown>)[key] ?? fallback;
  if (!Number.isInteger(value) || (value as number) < least) {
    throw new WaitforError('invalid_options', `options.${key} must be an integer ≥ ${least}`, {
      path: key,
    });
  }
  return value as number;
};

function originOf(options: ToolRunOptions): RequestOrigin | undefined {
  const { origin } = options;
  if (origin !== undefined && !(isRecord(origin) && nonEmpty(origin.server))) {
    throw new WaitforError('invalid_options', 'options.origin must name a server', {
      path: 'origin.server',
    });
  }
  return origin;
}

const limits = (options: ToolRunOptions) => ({
  signal: options.signal,
  origin: originOf(options),
  maxRounds: count(options, 'maxRounds', DEFAULT_MAX_ROUNDS, 0),
  maxRequests: count(options, 'maxRequests', DEFAULT_MAX_REQUESTS, 1),
});

const noAnswers: Readonly<Record<string, Answer>> = Object.freeze(Object.create(null));

/**
 * Runs a host's own tool to its result: whenever it returns `pending(...)`, the round's Requests
 * are asked through `waitFor` all at once (bounded by `expiresAt`; forms checked and re-asked),
 * and the tool runs again with their Answers and its state. Throws WaitforError `aborted`,
 * `rounds_exceeded`, `invalid_pending`/`duplicate_request` (a malformed Pending) or
 * `invalid_options`; a tool's own error passes through.
 */
export async function runTool<Args, Result>(
  tool: Tool<Args, Result>,
  args: Args,
  options: RunToolOptions,
): Promise<Result> {
  if (typeof options?.waitFor !== 'function')
    throw new WaitforError('invalid_options', 'options.waitFor must be a function', {
      path: 'waitFor',
    });
  const maxAttempts = count(options, 'maxAttempts', DEFAULT_MAX_ATTEMPTS, 1);
  const bound = boundWaitFor(options.waitFor, { now: options.now });
  const loop = limits(options);
  const outcome = await runLoop(
    tool,
    { args, answers: noAnswers, state: undefined, round: 0 },
    { ...loop, ask: (requests) => askRound(bound, requests, { signal: loop.signal, maxAttempts }) },
  );
  // Without a durable mode the loop only ends complete.
  return (outcome as { result: Result }).result;
}

/**
 * Runs a tool like runTool but never waits for a person: at the first round with Requests it
 * returns a JSON-safe suspension (the Requests, the args and the tool's state) to store, show and
 * later pass to resumeTool, possibly in another process. `args` must be JSON-safe, checked at
 * run time (else `invalid_options`), so an interface type is accepted too.
 */
export async function runToolDurable<Args, Result>(
  tool: Tool<Args, Result>,
  args: Args,
  options: ToolRunOptions = {},
): Promise<ToolOutcome<Result>> {
  assertJsonSafe(args, 'invalid_options', 'args');
  return runLoop(tool, { args, answers: noAnswers, state: undefined, round: 0 }, limits(options));
}

/**
 * Finishes a suspended tool run: checks the (untrusted) suspension (`invalid_suspension`), matches
 * `answers` one to one with its Requests (`answer_mismatch`; an invalid form is `invalid_answer`,
 * nothing runs), and runs the tool again with them and the stored state — until its result or
 * the next suspension.
 */
export async function resumeTool<Args, Result>(
  tool: Tool<Args, Result>,
  suspension: unknown,
  answers: readonly Answer[],
  options: ToolRunOptions = {},
): Promise<ToolOutcome<Result>> {
  const loop = limits(options);
  // The round engine reads the suspension and checks the Answers; the tool runs again with them.
  return resumeRound(
    {
      suspension: toolSuspensionShape(loop.maxRequests),
      send: ({ own, round }, checked) =>
        runLoop(tool, { args: own.args as Args, answers: checked, state: own.state, round }, loop),
    },
    suspension,
    answers,
  );
}
