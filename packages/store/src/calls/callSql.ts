// The statements of durable calls, parameters only (see sql.ts for the questions and the rule every
// state change keeps: one statement, conditional on the state it leaves).
import type { Names } from '../names';
import { endedColumns, maxNoticeBytes, notice, transition } from '../sql';

const ms = (parameter: string) => `${parameter}::double precision * interval '1 millisecond'`;

/** One trace entry, built in SQL: the attempt it belongs to, what came of it, which host, when. */
const traceEntry = (outcome: string, by: string) =>
  `jsonb_build_array(jsonb_build_object('round', call.round, 'attempt', call.attempts,
    'outcome', ${outcome}, 'by', ${by}::text, 'at', now()))`;

/** The statements of durable calls in one schema. */
export function callStatements(names: Names) {
  const calls = names.calls;
  const notifyCall = (event: 'ready' | 'done') =>
    `pg_notify('${names.channel}', json_build_object('c', call_id, 'e', '${event}')::text)`;
  /**
   * The `done` notice of the CTE `finished` (call_id, state, result): it carries the stored result
   * (`r`, the row's own json text) while the payload fits NOTIFY's 8,000 bytes, so the host awaiting
   * it need not read the row; a longer one says only `done`, and that host reads the row.
   */
  const carried = `json_build_object('c', call_id, 'e', 'done', 't', state, 'r', result)::text`;
  const notifyDone = `pg_notify('${names.channel}', CASE
    WHEN state = 'complete' AND octet_length(${carried}) <= ${maxNoticeBytes} THEN ${carried}
    ELSE json_build_object('c', call_id, 'e', 'done')::text END)`;
  /**
   * The answers of the call of CTE `$from`, marked delivered (its resume sent them), their data
   * removed unless kept ($keep): one CTE of the statement that stores what came of the resume, so
   * it is fenced by the same claim and never happens without it.
   */
  const deliverAnswers = (from: string, keep: string) => `delivered AS (
  UPDATE ${names.questions} AS question SET delivered_at = now(),
    answer = CASE WHEN ${keep}::boolean OR question.answer IS NULL THEN question.answer
      WHEN question.outcome = 'accepted' THEN json_build_object('id', question.id, 'ok', true)
      ELSE json_build_object('id', question.id, 'ok', false, 'reason', question.outcome) END
  WHERE question.call_id IN (SELECT call_id FROM ${from})
    AND question.state <> 'open' AND question.delivered_at IS NULL)`;
  /** A claimable call: ready and due, or running under a lease that ran out (its host died). */
  const claimable = (alias: string) =>
    `(${alias}.state = 'ready' AND ${alias}.run_at <= now())
      OR (${alias}.state = 'running' AND ${alias}.lease_until < now())`;
  return {
    /**
     * Records a suspended call: `waiting` for its questions (inserted beside it, in the same
     * transaction), or `ready` at once when it has none ($7 false: only host requests).
     */
    insertCall: `WITH inserted AS (
  INSERT INTO ${calls} (call_id, scope, server_key, state, suspension, round, trace, created_by)
  VALUES ($1, $2, $3, CASE WHEN $7::boolean THEN 'waiting' ELSE 'ready' END, $4::json, $5,
    jsonb_build_array(jsonb_build_object('round', $5::integer, 'attempt', 0,
      'outcome', 'suspended', 'by', $6::text, 'at', now())), $6)
  RETURNING call_id, state)
SELECT call_id, CASE WHEN state = 'ready' THEN ${notifyCall('ready')} END FROM inserted`,

    /**
     * ready (due) or running (lease ran out) → running, claimed by $1 for $2 ms; counts the
     * attempt and records it in the trace. Each branch reads its own partial index, oldest first,
     * skipping rows another host holds (hosts never wait on each other).
     */
    claimCall: `WITH due AS (
  SELECT call_id FROM ${calls} WHERE state = 'ready' AND run_at <= now()
  ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED),
abandoned AS (
  SELECT call_id FROM ${calls} WHERE state = 'running' AND lease_until < now()
  ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED)
${transition({
  table: calls,
  alias: 'call',
  from: ['ready', 'running'],
  set: `state = 'running', claimed_by = $1, lease_until = now() + ${ms('$2')},
    attempts = call.attempts + 1,
    trace = call.trace || jsonb_build_array(jsonb_build_object('round', call.round,
      'attempt', call.attempts + 1, 'outcome', 'claimed', 'by', $1::text, 'at', now()))`,
  where: `call.call_id = coalesce((SELECT call_id FROM due), (SELECT call_id FROM abandoned))
    AND (${claimable('call')})`,
  returning: `call.call_id, call.scope, call.server_key, call.suspension, call.round, call.attempts,
    call.kind, call.version,
    CASE WHEN call.kind = 'task' THEN NULL ELSE (
      SELECT coalesce(json_agg(json_build_object('id', question.id, 'state', question.state,
        'answer', question.answer) ORDER BY question.seq), '[]'::json)
      FROM ${names.questions} AS question
      WHERE question.call_id = call.call_id AND question.state <> 'open') END AS answers`,
})}`,

    /**
     * Keeps this host's claim alive while it resumes the call (fenced: only the holder); no row
     * returned: the claim is gone (taken over, or the call ended).
     */
    renewLease: `UPDATE ${calls} SET lease_until = now() + ${ms('$3')}
  WHERE call_id = $1 AND claimed_by = $2 AND state = 'running' RETURNING call_id`,

    /** The ended questions of one call, to build the Answers of its resume. */
    callAnswers: `SELECT id, state, answer FROM ${names.questions}
  WHERE call_id = $1 AND state <> 'open' ORDER BY seq`,

    /** running → complete or failed ($3), for the host holding it (fenced by the claim). */
    finishCall: `WITH finished AS (
  ${transition({
    table: calls,
    alias: 'call',
    from: ['running'],
    set: `state = $3, result = $4::json, error = $5::jsonb,
      trace = call.trace || ${traceEntry('$3::text', '$2')},
      suspension = NULL, claimed_by = NULL, lease_until = NULL, ended_at = now()`,
    where: 'call.call_id = $1 AND call.claimed_by = $2',
    returning: 'call.call_id, call.state, call.result',
  })})
SELECT call_id, ${notifyDone} FROM finished`,

    /**
     * A modern call's resume completed: running → complete with its result ($3), fenced by the
     * claim; in the same statement its answers are marked delivered (data removed unless kept:
     * $4), and any open question of it (there should be none) ends `cancelled` (`completed`).
     */
    completeResumed: `WITH finished AS (
  ${transition({
    table: calls,
    alias: 'call',
    from: ['running'],
    set: `state = 'complete', result = $3::json, error = NULL,
      trace = call.trace || ${traceEntry(`'complete'`, '$2')},
      suspension = NULL, claimed_by = NULL, lease_until = NULL, ended_at = now()`,
    where: `call.call_id = $1 AND call.claimed_by = $2 AND call.kind = 'modern'`,
    returning: 'call.call_id, call.state, call.result',
  })}),
${deliverAnswers('finished', '$4')},
ended AS (
  ${transition({
    table: names.questions,
    alias: 'question',
    from: ['open'],
    set: `state = 'cancelled', outcome = 'completed', ended_at = now(), delivered_at = now(),
      request = CASE WHEN $4::boolean THEN question.request END`,
    where: 'question.call_id IN (SELECT call_id FROM finished)',
    returning: endedColumns,
  })}),
notices AS (SELECT ${notice(names, 'end')} FROM ended)
SELECT call_id, (SELECT count(*) FROM notices)::int AS withdrawn, ${notifyDone} FROM finished`,

    /**
     * running → ready after a failure that may pass: due again after $3 ms doubled per attempt
     * already made (capped at an hour), for any host; the answers stay (fenced by the claim).
     */
    retryLater: transition({
      table: calls,
      alias: 'call',
      from: ['running'],
      set: `state = 'ready', claimed_by = NULL, lease_until = NULL,
        run_at = now() + least(${ms('$3')} * power(2, greatest(call.attempts - 1, 0)), interval '1 hour'),
        trace = call.trace || ${traceEntry(`'retry'`, '$2')}`,
      where: 'call.call_id = $1 AND call.claimed_by = $2',
      returning: 'call.call_id',
    }),

    /**
     * running → waiting on the next round's suspension ($3, round $4), or ready at once when that
     * round has no questions ($5 false); fenced by the claim. The attempt count starts again. In
     * the same statement the answers this round's resume sent are marked delivered (data removed
     * unless kept: $6).
     */
    suspendAgain: `WITH suspended AS (
  ${transition({
    table: calls,
    alias: 'call',
    from: ['running'],
    set: `state = CASE WHEN $5::boolean THEN 'waiting' ELSE 'ready' END, suspension = $3::json,
      round = $4, attempts = 0, run_at = now(),
      kind = CASE WHEN $3::json->>'kind' = 'task' THEN 'task' ELSE 'modern' END,
      trace = call.trace || ${traceEntry(`'suspended'`, '$2')},
      claimed_by = NULL, lease_until = NULL`,
    where: 'call.call_id = $1 AND call.claimed_by = $2',
    returning: 'call.call_id, call.state',
  })}),
${deliverAnswers('suspended', '$6')}
SELECT call_id, CASE WHEN state = 'ready' THEN ${notifyCall('ready')} END FROM suspended`,

    /**
     * Records a task-backed call: `ready` at once, so one host claims it and polls the task for
     * as long as it runs; its questions are inserted beside it, in the same transaction.
     */
    insertTaskCall: `WITH inserted AS (
  INSERT INTO ${calls} (call_id, scope, server_key, state, kind, suspension, trace, created_by)
  VALUES ($1, $2, $3, 'ready', 'task', $4::json,
    jsonb_build_array(jsonb_build_object('round', 1, 'attempt', 0,
      'outcome', 'suspended', 'by', $5::text, 'at', now())), $5)
  RETURNING call_id)
SELECT call_id, ${notifyCall('ready')} FROM inserted`,

    /**
     * The ended questions of a call whose answers no resume has sent yet, oldest first (a closed
     * one was never sent and never will be: its answerer was told so).
     */
    unsentAnswers: `SELECT seq::text AS seq, id, state, answer FROM ${names.questions}
  WHERE call_id = $1 AND state NOT IN ('open', 'closed') AND delivered_at IS NULL ORDER BY seq`,

    /**
     * Takes the unsent answers of call $1 for its Requests $3 (a JSON array of ids) to send them,
     * for the host holding the claim ($2, its lease not run out), in one statement conditional on
     * the row's state: an answer taken is sent (at least once: by this poller, or by the next one
     * should this one die) and never given back to its answerer; one given back first is open
     * again and not taken. Returns them like `unsentAnswers`.
     */
    takeUnsent: `UPDATE ${names.questions} AS question SET sending_by = $2
  WHERE question.call_id = $1 AND question.state NOT IN ('open', 'closed')
    AND question.delivered_at IS NULL
    AND question.id IN (SELECT value FROM json_array_elements_text($3::json))
    AND EXISTS (SELECT 1 FROM ${calls} AS call WHERE call.call_id = $1 AND call.claimed_by = $2
      AND call.state = 'running' AND call.lease_until >= now())
  RETURNING question.seq::text AS seq, question.id, question.state, question.answer`,

    /**
     * Marks the answers of rows $2 (a JSON array of seq) sent, removing their data and request
     * (unless kept: $3), and announces each `delivered`: what its answerer's `submit` waits for. A row closed in
     * the meantime stays closed (its answerer was told it did not go through).
     */
    markSent: `WITH sent AS (
  UPDATE ${names.questions} AS question SET delivered_at = now(),
    answer = CASE WHEN $3::boolean OR question.answer IS NULL THEN question.answer
      WHEN question.outcome = 'accepted' THEN json_build_object('id', question.id, 'ok', true)
      ELSE json_build_object('id', question.id, 'ok', false, 'reason', question.outcome) END,
    request = CASE WHEN $3::boolean THEN question.request END
  WHERE question.call_id = $1 AND question.delivered_at IS NULL AND question.state <> 'closed'
    AND question.seq IN (SELECT value::bigint FROM json_array_elements_text($2::json))
  RETURNING question.seq, question.scope, question.id)
SELECT seq::text AS seq, ${notice(names, 'delivered')} FROM sent`,

    /**
     * Replaces the saved suspension of a polled task ($4) with the one the bridge returned, for
     * the host holding the claim ($2) and only from the version it read ($3): a poller that lost
     * its claim, or read an older suspension, changes nothing. Returns the new version.
     */
    replaceSuspension: transition({
      table: calls,
      alias: 'call',
      from: ['running'],
      set: `suspension = $4::json, version = call.version + 1, attempts = 0,
        round = coalesce(($4::json->>'round')::integer, call.round),
        trace = call.trace || ${traceEntry(`'suspended'`, '$2')}`,
      where: 'call.call_id = $1 AND call.claimed_by = $2 AND call.version = $3',
      returning: 'call.version',
    }),

    /**
     * For the questions of call $1 whose id is not in $2 (a JSON array; null: all), with the reason
     * ($3) as outcome, in one statement: open → cancelled (never sent as an answer: delivered at
     * once), and — a task's only — answered but not yet sent → closed (its key left the task
     * before the answer went out: the server will never get it, and its answerer's `submit` learns
     * so). Announced like any end. The request and the answer's data are dropped unless kept ($4).
     */
    withdrawQuestions: `WITH ended AS (
  ${transition({
    table: names.questions,
    alias: 'question',
    from: ['open', 'answered'],
    set: `state = CASE WHEN question.state = 'open' THEN 'cancelled' ELSE 'closed' END,
      outcome = $3::text, ended_at = coalesce(question.ended_at, now()),
      delivered_at = CASE WHEN question.state = 'open' THEN now() END,
      answer = CASE WHEN $4::boolean OR question.answer IS NULL THEN question.answer
        WHEN question.outcome = 'accepted' THEN json_build_object('id', question.id, 'ok', true)
        ELSE json_build_object('id', question.id, 'ok', false, 'reason', question.outcome) END,
      request = CASE WHEN $4::boolean THEN question.request END`,
    where: `question.call_id = $1 AND ($2::json IS NULL
      OR question.id NOT IN (SELECT value FROM json_array_elements_text($2::json)))
      AND (question.state = 'open' OR (question.delivered_at IS NULL AND EXISTS (
        SELECT 1 FROM ${calls} AS task WHERE task.call_id = question.call_id AND task.kind = 'task')))`,
    returning: endedColumns,
  })})
SELECT seq::text AS seq, ${notice(names, 'end')} FROM ended`,

    /** Where a call stands, for the host awaiting its result. */
    callState: `SELECT state, result, error FROM ${calls} WHERE call_id = $1`,

    /** Deletes ended calls older than $1 ms, a bounded batch at a time (their questions follow). */
    deleteEndedCalls: `DELETE FROM ${calls} WHERE call_id IN (
  SELECT call_id FROM ${calls}
  WHERE state IN ('complete', 'failed') AND ended_at < now() - ${ms('$1')}
  LIMIT 1000)`,
  };
}

/** The statements of durable calls, one schema's. */
export type CallStatements = ReturnType<typeof callStatements>;
