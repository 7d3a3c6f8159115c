import type { Answer, Request, WaitFor } from '@waitfor/core';
import { BridgeError } from '@waitfor/mcp-bridge';
import type {
  CallOptions,
  DurableOutcome,
  ProtocolEra,
  ResumeOptions,
  AnySuspension,
  ToolParams,
} from '@waitfor/mcp-bridge';
import { getConfig, interrupt, task } from '@langchain/langgraph';
import { isRecord } from '@waitfor/runtime';
import { LangGraphError } from './langGraphError';

/**
 * What the adapter needs of a bridge: a `Connection` from `connect(...)` or the `Bridge` that
 * `attachWaitFor(client, ...)` returns. Both fit as they are.
 */
export interface InterruptSource {
  /** The negotiated era: `modern` calls interrupt the run, `legacy` ones ask `waitFor` inline. */
  readonly era: ProtocolEra;
  /** Who asks (shown to the person). */
  readonly serverName?: string;
  callTool(
    params: ToolParams,
    options: CallOptions & { durable: true },
  ): Promise<DurableOutcome<object>>;
  callTool(params: ToolParams, options?: CallOptions & { durable?: false }): Promise<object>;
  resume(
    suspension: AnySuspension,
    answers: readonly Answer[],
    options?: ResumeOptions,
  ): Promise<DurableOutcome<object>>;
}

/**
 * The value of the interrupt a modern-era question raises: every Request of the server's round
 * (all at once, in one interrupt), and the bridge's suspension (JSON) that resumes the MCP call.
 */
export interface WaitforInterrupt {
  readonly type: 'waitfor';
  /** Who asks: the bridge's server name. */
  readonly server: string;
  /** The MCP tool whose call asks. */
  readonly tool: string;
  /** The questions of the round, each as the bridge made it (`data.origin` names server and tool). */
  readonly requests: readonly Request[];
  /** The durable call, as the bridge's `resume` takes it (kept in the graph's checkpoint). */
  readonly suspension: AnySuspension;
  /**
   * Set when the round is asked again because the previous resume was refused (nothing was sent):
   * resume once more with one Answer per Request.
   */
  readonly refused?: ResumeRefusal;
}

/** Options of `callToolWithInterrupt`. */
export interface InterruptCallOptions {
  /**
   * The bridge's call options (`timeout`, `modes`, `maxRounds`, `limits`, …). Not `signal` and not
   * `durable`: the signal is the run's, and the era decides durability.
   */
  call?: Omit<CallOptions, 'signal'> & { durable?: never };
  /**
   * Legacy era: the `waitFor` that answers the server's pushed questions of this call (default:
   * the bridge's own). A push cannot outlive its connection, so it is never an interrupt.
   */
  waitFor?: WaitFor;
  /** The node's config (its second argument); default the run's config where the node runs. */
  config?: { signal?: CallOptions['signal'] };
}

/** Why the previous resume of a round was refused (the bridge's check: nothing was sent). */
export interface ResumeRefusal {
  /** `answer_mismatch`: not one Answer per Request; `invalid_answer`: a form that fails its schema. */
  readonly code: 'answer_mismatch' | 'invalid_answer';
  readonly message: string;
  /** For `invalid_answer`: one message per field (`''` for the form as a whole). */
  readonly errors?: Readonly<Record<string, string>>;
}

/** A leg's outcome as the checkpoint keeps it: the bridge's, or a resume it refused. */
type Leg = DurableOutcome<object> | { status: 'refused'; refusal: ResumeRefusal };

const refusable = new Set(['answer_mismatch', 'invalid_answer']);

/** A resume the bridge refused before sending anything becomes a value, so the round is re-asked. */
function refusalOf(error: unknown): Leg {
  if (!BridgeError.isInstance(error) || !refusable.has(error.code)) throw error;
  // Per-field messages: on `errors` (older bridges: `details.errors`).
  const details = error.details as { errors?: ResumeRefusal['errors'] } | undefined;
  const errors = error.errors ?? details?.errors;
  const refusal: ResumeRefusal = {
    code: error.code as ResumeRefusal['code'],
    message: error.message,
    ...(errors === undefined ? {} : { errors }),
  };
  return { status: 'refused', refusal };
}

type Outcome = DurableOutcome<object>;
type LegTask = (run: () => Promise<Leg>) => Promise<Leg>;

/** One suspended round of a call, as `answerRound` asks it. */
interface Round {
  source: InterruptSource;
  tool: string;
  suspension: AnySuspension;
  call: CallOptions;
}

/**
 * Interrupt the run with the round's Requests, and resume the call with the Answers the run is
 * resumed with. A resume the bridge refuses (nothing sent) asks the round again, with the reason.
 */
async function answerRound({ source, tool, suspension, call }: Round, leg: LegTask) {
  let refused: ResumeRefusal | undefined;
  for (;;) {
    const resume: unknown = interrupt<WaitforInterrupt>({
      type: 'waitfor',
      server: source.serverName ?? '',
      tool,
      requests: suspension.requests,
      suspension,
      ...(refused === undefined ? {} : { refused }),
    });
    const answers = (Array.isArray(resume) ? resume : [resume]) as Answer[];
    const next = await leg(() =>
      source.resume(suspension, answers, { ...call, durable: true }).catch(refusalOf),
    );
    if (next.status !== 'refused') return next;
    refused = next.refusal;
  }
}

const checkSource = (source: InterruptSource, params: ToolParams) => {
  if (!isRecord(source) || typeof source.callTool !== 'function')
    throw new LangGraphError('invalid_options', 'source must be a Connection or a Bridge');
  if (!isRecord(params) || typeof params.name !== 'string' || params.name === '')
    throw new LangGraphError('invalid_options', 'params.name must name a tool');
};

/**
 * Call an MCP tool from inside a LangGraph node (or a tool the graph runs), through the bridge.
 *
 * - Modern era (2026-07-28): the call is durable. When the server needs input, the run is
 *   interrupted with one `WaitforInterrupt` holding every Request of the round; resume the run with
 *   `new Command({ resume: answers })` (one Answer per Request) — in this process or any other
 *   one sharing the checkpointer. The node runs again from its start, the MCP call's legs already
 *   made are read back from the checkpoint (LangGraph tasks), and the call is completed once, with
 *   the Answers. Answers the bridge refuses (not one per Request, a form that fails its schema)
 *   are not sent: the round interrupts again, with the reason in `refused`.
 * - Legacy era: the server's pushed questions are answered inline by `waitFor` (the bridge's, or
 *   `options.waitFor`): a push is bound to its open connection and cannot survive an interrupt.
 *
 * The run's abort signal ends the call and every question it has open. Resolves with the tool's
 * CallToolResult (an `isError` result is returned as it is).
 */
export async function callToolWithInterrupt(
  source: InterruptSource,
  params: ToolParams,
  options: InterruptCallOptions = {},
): Promise<Record<string, unknown>> {
  checkSource(source, params);
  if (options.call !== undefined && 'durable' in options.call)
    throw new LangGraphError('invalid_options', 'durable is chosen by the era');
  const ambient = getConfig();
  const signal = (options.config ?? ambient)?.signal;
  const call: CallOptions = { ...options.call, ...(signal === undefined ? {} : { signal }) };
  if (source.era !== 'modern') {
    const own = options.waitFor === undefined ? {} : { waitFor: options.waitFor };
    return (await source.callTool(params, { ...call, ...own })) as Record<string, unknown>;
  }
  if (ambient === undefined)
    throw new LangGraphError(
      'invalid_options',
      'a modern-era call interrupts its run: call it inside a LangGraph node',
    );
  // Each leg is a task: its outcome is written to the checkpoint, so when the node runs again on
  // resume the legs already made are read back instead of being sent again.
  const leg: LegTask = async (run) => task(`waitfor:${params.name}`, run)();
  let outcome = (await leg(() => source.callTool(params, { ...call, durable: true }))) as Outcome;
  while (outcome.status === 'suspended') {
    const round = { source, tool: params.name, suspension: outcome.suspension, call };
    outcome = await answerRound(round, leg);
  }
  return outcome.result as Record<string, unknown>;
}

/** True when `value` is the value of an interrupt raised by this adapter. */
export function isWaitforInterrupt(value: unknown): value is WaitforInterrupt {
  return (
    isRecord(value) &&
    value.type === 'waitfor' &&
    Array.isArray(value.requests) &&
    isRecord(value.suspension)
  );
}

/**
 * The adapter's interrupts of a run's result (`graph.invoke(...)` returns them in `__interrupt__`),
 * each with its LangGraph id: what a host shows the person before resuming.
 */
export function waitforInterrupts(
  result: unknown,
): Array<{ id?: string; value: WaitforInterrupt }> {
  const listed = isRecord(result) ? result.__interrupt__ : undefined;
  if (!Array.isArray(listed)) return [];
  return listed.filter(
    (item): item is { id?: string; value: WaitforInterrupt } =>
      isRecord(item) && isWaitforInterrupt(item.value),
  );
}
