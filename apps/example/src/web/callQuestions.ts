import type { UrlElicitation } from '@waitfor/legacy-spec';

/** What a call needs for its questions to be told apart from another call's. */
export interface CallQuestions {
  server: string;
  tool: string;
  status: 'running' | 'done' | 'declined' | 'failed' | 'cancelled';
  /**
   * Ids of the Requests this run may have asked: those that arrived on its server while it ran
   * (a legacy push names no call). Whatever waits on one of them ends with the run.
   */
  questions: readonly string[];
}

/** One call's key: its server and tool (Run never starts the same call twice at once). */
export const callKey = (server: string, tool: string): string => `${server}\0${tool}`;

/** Bounds what a server pushing question after question can make one run remember. */
const maxQuestionsPerRun = 50;

/**
 * `calls` with the Request `id` noted on every run in flight on `server` that may have asked
 * it — only the run of `tool` when the bridge named the one call that asked.
 */
export function noteQuestion<Call extends CallQuestions>(
  calls: readonly Call[],
  server: string,
  tool: string | undefined,
  id: string,
): Call[] {
  return calls.map((call) =>
    call.status === 'running' &&
    call.server === server &&
    (tool === undefined || call.tool === tool)
      ? { ...call, questions: [...call.questions, id].slice(-maxQuestionsPerRun) }
      : call,
  );
}

/**
 * The URL steps the person is still finishing elsewhere: consented in legacy-spec's registry (a
 * completion or a close ends that) AND asked by a run that is still running — a cancelled, failed
 * or finished call waits for nothing any more, and a retry's old attempts are not its questions.
 */
export function stillWaiting(
  elicitations: readonly UrlElicitation[],
  calls: readonly CallQuestions[],
): UrlElicitation[] {
  const asked = new Set(
    calls.filter((call) => call.status === 'running').flatMap((call) => call.questions),
  );
  return elicitations.filter((entry) => entry.state === 'consented' && asked.has(entry.request.id));
}
