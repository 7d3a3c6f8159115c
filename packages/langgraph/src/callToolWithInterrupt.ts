import type { Answer, Request, WaitFor } from '@waitfor/core';
import { parseAnswer } from '@waitfor/core';
import type {
  CallOptions,
  DurableOutcome,
  ProtocolEra,
  ResumeOptions,
  Suspension,
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
    suspension: Suspension,
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
  readonly suspension: Suspension;
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

/** The resume value as the Answers to `requests` (one each), or `invalid_resume`. */
export function answersFor(requests: readonly Request[], resume: unknown): Answer[] {
  const given = Array.isArray(resume) ? (resume as unknown[]) : [resume];
  if (given.length !== requests.length)
    throw new LangGraphError(
      'invalid_resume',
      `resume with ${requests.length} Answer(s), one per Request of the interrupt; got ${given.length}`,
    );
  const pending = new Set(requests.map((request) => request.id));
  return given.map((value) => {
    let answer: Answer;
    try {
      answer = parseAnswer(value);
    } catch (error) {
      throw new LangGraphError('invalid_resume', 'resume with Answers', { cause: error });
    }
    if (!pending.delete(answer.id))
      throw new LangGraphError('invalid_resume', `no Request of the interrupt has id ${answer.id}`);
    return answer;
  });
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
 *   `new Command({ resume: answers })` (an Answer, or one per Request) — in this process or any
 *   other one sharing the checkpointer. The node runs again from its start, the MCP call's legs
 *   already made are read back from the checkpoint (LangGraph tasks), and the call is completed
 *   once, with the Answers.
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
  const signal = (options.config ?? getConfig())?.signal;
  const call: CallOptions = { ...options.call, ...(signal === undefined ? {} : { signal }) };
  if (source.era !== 'modern') {
    const own = options.waitFor === undefined ? {} : { waitFor: options.waitFor };
    return (await source.callTool(params, { ...call, ...own })) as Record<string, unknown>;
  }
  // Each leg is a task: its outcome is written to the checkpoint, so when the node runs again on
  // resume the legs already made are read back instead of being sent again.
  const leg = (run: () => Promise<DurableOutcome<object>>) => task(`waitfor:${params.name}`, run)();
  let outcome = await leg(() => source.callTool(params, { ...call, durable: true }));
  while (outcome.status === 'suspended') {
    const { suspension } = outcome;
    const value: WaitforInterrupt = {
      type: 'waitfor',
      server: source.serverName ?? '',
      tool: params.name,
      requests: suspension.requests,
      suspension,
    };
    const answers = answersFor(suspension.requests, interrupt(value));
    outcome = await leg(() => source.resume(suspension, answers, { ...call, durable: true }));
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
