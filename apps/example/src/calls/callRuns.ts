import type { Answer, Request, WaitFor } from '@waitfor/core';
import { BridgeError } from '@waitfor/mcp-bridge';
import { callKey } from '../web/callQuestions.js';
import { readableError } from '../web/resultText.js';

/** How a call stands, in the page's words (both modes). */
export type CallStatus = 'running' | 'done' | 'declined' | 'failed' | 'cancelled';

/** How a call ended in the page's own words (a key of the page's texts, so it is translated). */
export type CallNote =
  'notConnected' | 'cancelledCall' | 'disconnectedCall' | 'declinedCall' | 'hostRestarted';

/** Where one run of a call stands, as the runs report it. */
export interface RunState {
  status: CallStatus;
  /** What the tool returned (or why it failed), in the tool's words. */
  text?: string;
  /** Or the page's own words for how it ended. */
  note?: CallNote;
  /**
   * Ids of the questions this run may have asked (a legacy push names no call): whatever waits on
   * one of them ends with the run, so an ended run reports none.
   */
  questions: readonly string[];
}

/** What a tool call itself resolves with. */
export interface ToolEnd {
  status: 'done' | 'failed';
  text: string;
}

/** Starts one run of a call; an abort of `signal` (Cancel call) ends it as cancelled. */
export type Starter = (signal: AbortSignal) => Promise<ToolEnd>;

interface Run {
  controller: AbortController;
  key: string;
  server: string;
  /** The person declined or cancelled one of its questions: its result reads so, whatever follows. */
  answered: 'declined' | 'cancelled' | undefined;
  /** Whether the server's connection was lost while it ran. */
  lost(): boolean;
  questions: string[];
}

/** Bounds what a server pushing question after question can make one run remember. */
const maxQuestionsPerRun = 50;

/** The tool named by a Request's origin, if any (a legacy push outside a known call names none). */
export const toolOf = (request: Request): string | undefined => {
  const origin = request.data?.origin;
  const tool = origin !== undefined && Object.hasOwn(origin, 'tool') ? origin.tool : undefined;
  return typeof tool === 'string' && tool !== '' ? tool : undefined;
};

/**
 * The life of every call, the same for the in-page and the hosted mode: one run per tool at a
 * time, its questions noted, a declined or cancelled question making the call read so, Cancel call
 * aborting it, a lost connection or an error ending it as failed (without SDK prefixes). `report`
 * hears every change of a run, keyed by the caller's call id (a Retry runs the same id again).
 */
export class CallRuns<Id> {
  private readonly runs = new Map<Id, Run>();

  constructor(private readonly report: (id: Id, state: RunState) => void) {}

  /** Whether a run of this server's tool is in flight. */
  busy(server: string, tool: string): boolean {
    const key = callKey(server, tool);
    for (const run of this.runs.values()) if (run.key === key) return true;
    return false;
  }

  /** Whether the call `id` is running. */
  running(id: Id): boolean {
    return this.runs.has(id);
  }

  /**
   * Starts a run of `id` (false when it or the same tool runs already). Without a starter (its
   * server is not connected) the run fails at once.
   */
  start(id: Id, server: string, tool: string, starter?: Starter, lost = () => false): boolean {
    if (this.runs.has(id) || this.busy(server, tool)) return false;
    if (starter === undefined) {
      this.report(id, { status: 'failed', note: 'notConnected', questions: [] });
      return true;
    }
    const run: Run = {
      controller: new AbortController(),
      key: callKey(server, tool),
      server,
      answered: undefined,
      lost,
      questions: [],
    };
    this.runs.set(id, run);
    this.report(id, { status: 'running', questions: [] });
    const { signal } = run.controller;
    const finish = (end: Omit<RunState, 'questions'>) => {
      if (this.runs.get(id) !== run) return;
      this.runs.delete(id);
      this.report(id, { ...end, questions: [] });
    };
    starter(signal).then(
      (ended) =>
        finish(
          signal.aborted
            ? { status: 'cancelled', note: 'cancelledCall' }
            : run.answered === undefined
              ? ended
              : { ...ended, status: run.answered },
        ),
      (error: unknown) => finish(endOf(error, run)),
    );
    return true;
  }

  /** Cancel call: aborts the run (its open questions leave the list); false when not running. */
  cancel(id: Id): boolean {
    const run = this.runs.get(id);
    if (run === undefined) return false;
    run.controller.abort(new Error('Cancelled from the page'));
    return true;
  }

  /** Ends every run without a report (the host or page stops; a restart reports them later). */
  stop(reason: Error): void {
    const runs = [...this.runs.values()];
    this.runs.clear();
    for (const run of runs) run.controller.abort(reason);
  }

  /** Notes a question on every run in flight that may have asked it (only `tool`'s when named). */
  asked(server: string, request: Request): void {
    const tool = toolOf(request);
    for (const [id, run] of this.runs)
      if (this.mayHaveAsked(run, server, tool)) {
        run.questions = [...run.questions, request.id].slice(-maxQuestionsPerRun);
        this.report(id, { status: 'running', questions: run.questions });
      }
  }

  /** Notes how the person answered a question: a decline or cancel is the call's outcome. */
  answered(server: string, request: Request, answer: Answer): void {
    const { reason } = answer;
    const said =
      reason === 'declined' ? 'declined' : reason === 'cancelled' ? 'cancelled' : undefined;
    if (answer.ok || said === undefined) return;
    const tool = toolOf(request);
    for (const run of this.runs.values())
      if (this.mayHaveAsked(run, server, tool)) run.answered ??= said;
  }

  /** `waitFor` with every question noted on the runs that may have asked it, and its answer too. */
  noting(server: string, waitFor: WaitFor): WaitFor {
    return async (request, context) => {
      this.asked(server, request);
      const answer = await waitFor(request, context);
      this.answered(server, request, answer);
      return answer;
    };
  }

  private mayHaveAsked(run: Run, server: string, tool: string | undefined): boolean {
    return tool === undefined ? run.server === server : run.key === callKey(server, tool);
  }
}

/** How a run that threw ended. Only the caller aborts a run, so an abort means Cancel call. */
function endOf(error: unknown, run: Run): Omit<RunState, 'questions'> {
  if (run.controller.signal.aborted) return { status: 'cancelled', note: 'cancelledCall' };
  if (run.lost()) return { status: 'failed', note: 'disconnectedCall' };
  if (run.answered !== undefined)
    return {
      status: run.answered,
      note: run.answered === 'declined' ? 'declinedCall' : 'cancelledCall',
    };
  if (BridgeError.isInstance(error) && error.code === 'aborted')
    return { status: 'cancelled', note: 'cancelledCall' };
  return { status: 'failed', text: readableError(error) };
}
