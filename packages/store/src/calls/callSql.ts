// The statements of durable calls, parameters only (see sql.ts for the questions).
import { channel } from '../sql';

const notifyCall = (event: 'ready' | 'done'): string =>
  `pg_notify('${channel}', json_build_object('c', call_id, 'e', '${event}')::text)`;

/** Records a suspended call (its questions are inserted beside it, in the same transaction). */
export const insertCall = `INSERT INTO waitfor_calls
  (call_id, scope, server_key, state, suspension, round, trace, created_by)
  VALUES ($1, $2, $3, 'waiting', $4::jsonb, $5, $6::jsonb, $7)`;

/**
 * Claims one call to resume, skipping rows another host holds: a ready one, or a running one
 * whose host stopped renewing its lease (it died). $1 is this host, $2 the lease in ms.
 */
export const claimCall = `UPDATE waitfor_calls
  SET state = 'running', claimed_by = $1,
    lease_until = now() + $2::double precision * interval '1 millisecond'
  WHERE call_id = (
    SELECT call_id FROM waitfor_calls
    WHERE state = 'ready' OR (state = 'running' AND lease_until < now())
      OR (state = 'waiting' AND NOT EXISTS (
        SELECT 1 FROM waitfor_questions AS question
        WHERE question.call_id = waitfor_calls.call_id AND question.state = 'open'))
    ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
  RETURNING call_id, scope, server_key, suspension, round, trace`;

/** Keeps this host's claim alive while it resumes the call. */
export const renewLease = `UPDATE waitfor_calls
  SET lease_until = now() + $3::double precision * interval '1 millisecond'
  WHERE call_id = $1 AND claimed_by = $2 AND state = 'running'`;

/** The ended questions of one call, to build the Answers of its resume. */
export const callAnswers = `SELECT id, state, answer FROM waitfor_questions
  WHERE call_id = $1 AND state <> 'open' ORDER BY seq`;

/** Removes the answers' data once the call was resumed with them (unless kept: $2). */
export const scrubCallAnswers = `UPDATE waitfor_questions
  SET delivered_at = now(), answer = CASE WHEN $2::boolean THEN answer ELSE answer - 'data' END
  WHERE call_id = $1 AND state <> 'open' AND delivered_at IS NULL`;

/** Ends a call this host holds (fenced: a host whose lease was taken over changes nothing). */
export const finishCall = `WITH finished AS (
  UPDATE waitfor_calls
  SET state = $3, result = $4::jsonb, error = $5::jsonb, trace = trace || $6::jsonb,
    suspension = NULL, claimed_by = NULL, lease_until = NULL, ended_at = now()
  WHERE call_id = $1 AND claimed_by = $2 AND state = 'running'
  RETURNING call_id)
SELECT call_id, ${notifyCall('done')} FROM finished`;

/**
 * Lets go of a call after a failure that may pass: nobody holds it, and its lease ends in $3 ms,
 * when any host may claim it again (fenced: only the holder can).
 */
export const retryLater = `UPDATE waitfor_calls
  SET claimed_by = NULL, lease_until = now() + $3::double precision * interval '1 millisecond',
    trace = trace || $4::jsonb
  WHERE call_id = $1 AND claimed_by = $2 AND state = 'running'`;

/** Puts a call this host holds back to waiting, on its next round's suspension (fenced too). */
export const suspendAgain = `UPDATE waitfor_calls
  SET state = 'waiting', suspension = $3::jsonb, round = $4, trace = trace || $5::jsonb,
    claimed_by = NULL, lease_until = NULL
  WHERE call_id = $1 AND claimed_by = $2 AND state = 'running'
  RETURNING call_id`;

/** Where a call stands, for the host awaiting its result. */
export const callState = `SELECT state, result, error FROM waitfor_calls WHERE call_id = $1`;
