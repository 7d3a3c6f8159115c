// Every statement of the store, with parameters only: no value is ever spliced into SQL text.
// `seq` travels as text: a bigint is a string in `pg` and would lose precision as a JS number.

/** The one NOTIFY channel of the store. */
export const channel = 'waitfor_store';

// The payload names the scope, the question and its row; `e` says whether it opened or ended.
// Scopes and ids are bounded by the store, so it stays under NOTIFY's 8000-byte limit.
const notify = (event: 'open' | 'end'): string =>
  `pg_notify('${channel}', json_build_object('s', scope, 'i', id, 'q', seq::text, 'e', '${event}')::text)`;

/**
 * Opens a question unless one with its id is open in its scope; returns its `seq`, or no row. $8 is
 * the durable call it belongs to (null for a question someone waits for in memory).
 */
export const insertQuestion = `WITH asked AS (
  INSERT INTO waitfor_questions (scope, id, kind, request, origin, expires_at, asked_by, call_id)
  VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::timestamptz, $7, $8::text)
  ON CONFLICT (scope, id) WHERE state = 'open' DO NOTHING
  RETURNING seq, scope, id)
SELECT seq::text AS seq, ${notify('open')} FROM asked`;

/**
 * Ends one open question, first writer wins: $3 is the new state. An answer ($3 = 'answered')
 * counts only before `expires_at` ($8, the caller's clock). The request is dropped unless kept ($7).
 */
export const endQuestion = `WITH ended AS (
  UPDATE waitfor_questions
  SET state = $3::text, answer = $4::jsonb, outcome = $5::text, answered_by = $6::text,
    ended_at = now(), request = CASE WHEN $7::boolean THEN request END
  WHERE scope = $1 AND seq = $2::bigint AND state = 'open'
    AND ($3::text <> 'answered' OR expires_at IS NULL OR expires_at > $8::timestamptz)
  RETURNING seq, scope, id)
SELECT seq::text AS seq, ${notify('end')} FROM ended`;

/** Ends every open question past its `expires_at` ($1), of one scope ($2) or of all (null). */
export const expireDue = `WITH ended AS (
  UPDATE waitfor_questions
  SET state = 'expired', outcome = 'expired', ended_at = now(),
    request = CASE WHEN $3::boolean THEN request END
  WHERE seq IN (
    SELECT seq FROM waitfor_questions
    WHERE state = 'open' AND expires_at <= $1::timestamptz AND ($2::text IS NULL OR scope = $2::text)
    ORDER BY expires_at LIMIT 10000)
  RETURNING seq, scope, id)
SELECT seq::text AS seq, ${notify('end')} FROM ended`;

/** Deletes ended questions older than $1 ms (by the database's clock), a bounded batch at a time. */
export const deleteEnded = `DELETE FROM waitfor_questions WHERE seq IN (
  SELECT seq FROM waitfor_questions
  WHERE state <> 'open' AND ended_at < now() - $1::double precision * interval '1 millisecond'
  LIMIT 10000)`;

/** The open questions of a scope, oldest first, at most $2. */
export const openQuestions = `SELECT seq::text AS seq, request FROM waitfor_questions
  WHERE scope = $1 AND state = 'open' ORDER BY seq LIMIT $2`;

/** One open question of a scope by its row. */
export const openQuestionBySeq = `SELECT seq::text AS seq, request FROM waitfor_questions
  WHERE scope = $1 AND seq = $2::bigint AND state = 'open'`;

/** One open question of a scope by its id. */
export const openQuestionById = `SELECT seq::text AS seq, request FROM waitfor_questions
  WHERE scope = $1 AND id = $2 AND state = 'open'`;

/** Which of the rows $2 (of scope $1) have ended. */
export const endedAmong = `SELECT seq::text AS seq FROM waitfor_questions
  WHERE scope = $1 AND seq = ANY($2::bigint[]) AND state <> 'open'`;

/**
 * The outcome of an ended question, for the host that asked it. Its answer's data is removed in
 * the same statement unless kept ($3): it was only stored to reach the asker.
 */
export const deliverOutcome = `WITH outcome AS (
  SELECT seq, state, answer FROM waitfor_questions
  WHERE scope = $1 AND seq = $2::bigint AND state <> 'open' FOR UPDATE),
scrubbed AS (
  UPDATE waitfor_questions AS question
  SET delivered_at = now(),
    answer = CASE WHEN $3::boolean THEN question.answer ELSE question.answer - 'data' END
  FROM outcome WHERE question.seq = outcome.seq)
SELECT state, answer FROM outcome`;

/** Takes or renews this host's lease ($1) for $2 ms. */
export const renewInstance = `INSERT INTO waitfor_instances (instance, lease_until)
  VALUES ($1, now() + $2::double precision * interval '1 millisecond')
  ON CONFLICT (instance) DO UPDATE SET lease_until = EXCLUDED.lease_until`;

/**
 * Closes the open questions whose asking host holds no live lease (it died, or stopped long ago):
 * nobody is waiting for their answers any more. Questions of durable calls are not bound to a host.
 */
export const closeOrphans = `WITH ended AS (
  UPDATE waitfor_questions
  SET state = 'closed', outcome = 'closed', ended_at = now(),
    request = CASE WHEN $1::boolean THEN request END
  WHERE seq IN (
    SELECT seq FROM waitfor_questions AS question
    WHERE state = 'open' AND call_id IS NULL AND NOT EXISTS (
      SELECT 1 FROM waitfor_instances AS host
      WHERE host.instance = question.asked_by AND host.lease_until >= now())
    LIMIT 10000)
  RETURNING seq, scope, id)
SELECT seq::text AS seq, ${notify('end')} FROM ended`;

/** Forgets hosts whose lease ran out more than $1 ms ago. */
export const deleteDeadInstances = `DELETE FROM waitfor_instances
  WHERE lease_until < now() - $1::double precision * interval '1 millisecond'`;
