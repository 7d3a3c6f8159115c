/**
 * Durable task-backed calls: instead of holding a person's questions in memory, the call returns a
 * TaskSuspension once its task has open questions, and `resume` (any bridge to the same server
 * identity, any process) sends the answers given with one tasks/update and watches again.
 *
 * Invariants: a reference of another server identity is refused ('foreign_reference') and one
 * that does not parse ('invalid_suspension') before anything is sent; keys already answered are
 * never suspended again; sampling/roots keys are answered by the host's handlers at once (they need
 * no person); a watch returns when the open elicitation keys differ from the reference's (new or
 * withdrawn keys) or the task ends (complete; 'task_failed' / 'task_cancelled').
 */
import type { AbortSignalLike, Answer, RequestOrigin } from '@waitfor/core';
import { BridgeError, toBridgeError } from '../bridgeError';
import { serverIdOf } from '../bridgeState';
import type { CallSettings } from '../callOptions';
import { checkParsed } from '../askPerson';
import { assertServable, resolveRound } from '../inputRound';
import type { BridgeLimits } from '../limits';
import type { DurableOutcome, InputRequest, TaskSuspension } from '../types';
import { finalResult, roundOf, type TaskRun } from './modern';
import { createTaskSuspension, taskResponses } from './suspension';
import { isTerminal, KeyBook, pollTask, type Watch } from './watch';

/** Where a durable watch starts: a first call's task, or a resumed reference. */
export interface DurableStart {
  params: Record<string, unknown>;
  answered: readonly string[];
  /** The reference's open keys (still unanswered), as the server sent them. */
  open: Record<string, InputRequest>;
  /** The reference's open keys, to compare each status's with. */
  reference: readonly string[];
  round: number;
}

const sameKeys = (keys: Iterable<string>, reference: readonly string[]): boolean => {
  const set = new Set(keys);
  return set.size === reference.length && reference.every((key) => set.has(key));
};

/** Answer a status's fresh sampling/roots keys through the host's handlers, and send them. */
async function answerHostKeys(
  run: TaskRun,
  book: KeyBook,
  fresh: Record<string, InputRequest>,
  signal: AbortSignalLike,
): Promise<void> {
  const hostKeys = Object.entries(fresh).filter(
    ([, entry]) => entry.method !== 'elicitation/create',
  );
  // Checked like a round's (an undeclared mode fails the call before anyone could be asked).
  const { settings } = run;
  const context = roundOf(settings, run.origin, signal);
  for (const [key, entry] of Object.entries(fresh))
    if (entry.method === 'elicitation/create')
      checkParsed(assertServable(key, entry, context)!, settings.limits.form);
  if (hostKeys.length === 0) return;
  const responses = await resolveRound(Object.fromEntries(hostKeys), context);
  await run.driver.update(run.taskId, responses, signal);
  for (const [key] of hostKeys) book.answer(key);
}

/** Watch a task durably from `start`: a new suspension once its questions changed, or its end. */
export async function watchDurable(
  run: TaskRun,
  start: DurableStart,
  server: string,
  signal: AbortSignalLike,
): Promise<DurableOutcome> {
  const { settings, taskId } = run;
  const book = new KeyBook(settings.limits, start.answered);
  for (const [key, entry] of Object.entries(start.open)) book.open.set(key, entry);
  const watch: Watch = {
    taskId,
    poll: (pollSignal) => run.driver.status(taskId, pollSignal),
    book,
    round: start.round,
    maxRounds: run.maxRounds,
    signal,
    stream: run.driver.listen?.(taskId),
  };
  const last = await pollTask(watch, run.first, async (status, change) => {
    if (isTerminal(status)) return true;
    await answerHostKeys(run, book, change.fresh, signal);
    const asking = [...book.open].some(([, entry]) => entry.method === 'elicitation/create');
    return asking && !sameKeys(book.open.keys(), start.reference);
  }).finally(() => watch.stream?.close());
  if (isTerminal(last)) return { status: 'complete', result: finalResult(last) };
  const suspension = createTaskSuspension({
    params: start.params,
    server,
    taskId,
    answered: book.answered(),
    open: book.open,
    round: Math.max(watch.round, 1),
    origin: run.origin,
    pollInterval: last.pollInterval,
    limits: settings.limits,
  });
  return { status: 'suspended', suspension };
}

/** The origin of a task call's questions (tool name as the call gave it). */
export const taskOrigin = (
  settings: CallSettings,
  params: Record<string, unknown>,
): RequestOrigin => ({
  server: settings.serverName,
  era: 'modern',
  tool: String(params['name']),
});

/**
 * Resume a task reference: checked (nothing is sent when it or the answers do not fit), the answers
 * sent with one tasks/update, then watched as by `watchDurable` (or, `durable: false`, to the end).
 * A 2025-11-25 reference (no questions in it, so no answers) is re-attached and waited for: its
 * questions are pushed to this bridge while it reads the task's tasks/result.
 */
export async function resumeTask(
  run: Omit<TaskRun, 'taskId' | 'first' | 'origin'>,
  value: unknown,
  answers: readonly Answer[],
  options: {
    durable: boolean;
    signal: AbortSignalLike;
    limits: BridgeLimits;
    serverId: string | undefined;
    /** The tasks revision this connection speaks (TaskSuspension['revision']). */
    revision: TaskSuspension['revision'];
  },
  interactive: (run: TaskRun, params: Record<string, unknown>) => Promise<Record<string, unknown>>,
): Promise<DurableOutcome> {
  const { suspension, responses } = taskResponses(value, answers, options.limits);
  const server = serverIdOf(run.settings.port, options.serverId);
  if (suspension.server !== server)
    throw new BridgeError(
      'foreign_reference',
      `The task reference is for server ${JSON.stringify(suspension.server)}, this bridge is ${JSON.stringify(server)}`,
    );
  // The same server may speak both revisions: a reference is resumed only by the one it is for.
  if (suspension.revision !== options.revision)
    throw new BridgeError(
      'foreign_reference',
      `The task reference is for ${revisionOf(suspension.revision)} tasks, this connection speaks ${revisionOf(options.revision)}`,
    );
  const full: TaskRun = {
    ...run,
    taskId: suspension.taskId,
    first: undefined,
    origin: taskOrigin(run.settings, suspension.params),
  };
  if (Object.keys(responses).length > 0) {
    try {
      await run.driver.update(suspension.taskId, responses, options.signal);
    } catch (error) {
      throw toBridgeError(error, options.signal);
    }
  }
  // A 2025-11-25 task's questions come only to the bridge reading its tasks/result: it waits.
  if (!options.durable || suspension.revision !== undefined)
    return { status: 'complete', result: await interactive(full, suspension.params) };
  return watchDurable(full, startOf(suspension, responses), server, options.signal);
}

/** A revision's name in a message. */
const revisionOf = (revision: TaskSuspension['revision']) => revision ?? '2026-07-28';

/** Where a resumed reference's watch starts: the keys answered now join the answered ones. */
function startOf(suspension: TaskSuspension, responses: Record<string, unknown>): DurableStart {
  const now = Object.keys(responses);
  const open = Object.fromEntries(
    Object.entries(suspension.inputRequests).filter(([key]) => !Object.hasOwn(responses, key)),
  );
  return {
    params: suspension.params,
    answered: [...suspension.answered, ...now],
    open,
    reference: Object.keys(suspension.inputRequests),
    round: suspension.round,
  };
}
