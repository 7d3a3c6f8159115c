// Every statement of the store's questions and hosts, with parameters only: no value is ever
// spliced into SQL text (the schema is a checked identifier, see names.ts).
// `seq` travels as text: a bigint is a string in `pg` and would lose precision as a JS number.
//
// The invariant that keeps answers: every state change is ONE statement whose own WHERE names the
// state it leaves (built by `transition`). Under READ COMMITTED an UPDATE that waited on a row
// another transaction changed re-checks its WHERE against the new row, so a sweep that waited on an
// answer's lock leaves the answered row alone. A sub-select alone would not: it is not re-checked.
import type { Names } from './names';

/** A state a question row can be in. */
export type QuestionState = 'open' | 'answered' | 'cancelled' | 'expired' | 'closed';

/** Most rows one sweep statement ends; the rest wait for the next sweep. */
export const batchSize = 1000;

/** Up to this many ended rows a statement announces one by one; past it, once per scope. */
export const rowNotices = 100;

interface Transition {
  table: string;
  alias: string;
  /** The states the row may leave: the statement changes nothing in any other. */
  from: readonly string[];
  set: string;
  where: string;
  returning: string;
}

/** An UPDATE that changes a row's state, conditional on the state it leaves (see the top of this file). */
export function transition({ table, alias, from, set, where, returning }: Transition): string {
  const states = from.map((state) => `'${state}'`).join(', ');
  return `UPDATE ${table} AS ${alias} SET ${set}
    WHERE (${where}) AND ${alias}.state IN (${states})
    RETURNING ${returning}`;
}

/** The largest NOTIFY payload PostgreSQL sends, in bytes: a longer one fails its statement. */
export const maxNoticeBytes = 7999;

/** The columns an `end` notice reads from the rows a statement ended (its RETURNING). */
export const endedColumns =
  'question.seq, question.scope, question.id, question.state, question.answered_by, question.ended_at';

/**
 * A question's notice. An `end` names the state the row ended in (an answerer waiting for delivery
 * only looks again when its row was closed), who answered it (`b`) and when (`a`, epoch ms), so
 * every inbox that listed it knows how it ended without reading the row — unless that payload
 * would pass NOTIFY's 8,000 bytes (a long scope, id and `answered_by` whose characters JSON
 * escapes to six bytes each), when it leaves `b` and `a` out and an inbox reads the row instead.
 */
export const notice = (names: Names, event: 'open' | 'end' | 'delivered'): string => {
  const fields = `'s', scope, 'i', id, 'q', seq::text, 'e', '${event}'`;
  const payload = (extra: string) => `json_build_object(${fields}${extra})::text`;
  if (event !== 'end') return `pg_notify('${names.channel}', ${payload('')})`;
  const full = payload(
    ", 't', state, 'b', answered_by, 'a', floor(extract(epoch FROM ended_at) * 1000)::bigint",
  );
  return `pg_notify('${names.channel}', CASE WHEN octet_length(${full}) <= ${maxNoticeBytes}
    THEN ${full} ELSE ${payload(", 't', state")} END)`;
};

/**
 * Announces the rows of the CTE `ended` and returns `{ended, notices}`: each row's `end` while
 * there are few, else one `changed` per scope (every inbox of it reloads), so a sweep of thousands
 * of rows never floods NOTIFY.
 */
const announceEnded = (names: Names) => `total AS (SELECT count(*)::int AS n FROM ended),
notices AS (
  SELECT ${notice(names, 'end')} FROM ended, total WHERE total.n <= ${rowNotices}
  UNION ALL
  SELECT pg_notify('${names.channel}', json_build_object('s', scope, 'e', 'changed')::text)
  FROM (SELECT DISTINCT scope FROM ended) AS scopes, total WHERE total.n > ${rowNotices})
SELECT total.n AS ended, (SELECT count(*) FROM notices)::int AS notices FROM total`;

/** The answer of a row without its data, rebuilt from the row's own columns (no JSON parsed). */
const answerWithoutData = (alias: string) => `CASE WHEN ${alias}.answer IS NULL THEN NULL
  WHEN ${alias}.outcome = 'accepted' THEN json_build_object('id', ${alias}.id, 'ok', true)
  ELSE json_build_object('id', ${alias}.id, 'ok', false, 'reason', ${alias}.outcome) END`;

/**
 * Closes a question nobody will read: open ones as `closed`, answered-but-unread ones as
 * `undelivered` (the answer kept for the audit, without its data unless `keep` says so).
 */
const closed = (keep: string) => `state = 'closed', ended_at = coalesce(question.ended_at, now()),
  outcome = CASE WHEN question.state = 'open' THEN 'closed' ELSE 'undelivered' END,
  request = CASE WHEN ${keep}::boolean THEN question.request END,
  answer = CASE WHEN ${keep}::boolean THEN question.answer ELSE ${answerWithoutData('question')} END`;

/** True when `question` (a row being given back) can be asked again: its request kept, its id not open. */
const reaskable = (q: string) => `(question.request IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM ${q} AS other WHERE other.scope = question.scope AND other.id = question.id
      AND other.state = 'open'))`;

/** True while the host that asked `alias`'s question holds a live lease (durable calls have no host). */
const askerAlive = (names: Names, alias: string, slackMs = '0') =>
  `(${alias}.call_id IS NOT NULL OR EXISTS (
    SELECT 1 FROM ${names.instances} AS host WHERE host.instance = ${alias}.asked_by
      AND host.lease_until >= now() - ${slackMs}::double precision * interval '1 millisecond'))`;

/** True when `alias`'s question belongs to a task-backed durable call. */
const ofTask = (names: Names, alias: string) => `EXISTS (SELECT 1 FROM ${names.calls} AS task
    WHERE task.call_id = ${alias}.call_id AND task.kind = 'task')`;

/** The statements of the store in one schema. */
export function questionStatements(names: Names) {
  const q = names.questions;
  return {
    /**
     * Opens a question unless one with its id is open in its scope; returns its `seq`, or no row.
     * $8 is the durable call it belongs to (null for a question someone waits for in memory).
     * Request and origin are `json`: kept as the text that was asked, key order and all.
     */
    insertQuestion: `WITH asked AS (
  INSERT INTO ${q} (scope, id, kind, request, origin, expires_at, asked_by, call_id)
  VALUES ($1, $2, $3, $4::json, $5::json, $6::timestamptz, $7, $8::text)
  ON CONFLICT (scope, id) WHERE state = 'open' DO NOTHING
  RETURNING seq, scope, id)
SELECT seq::text AS seq, ${notice(names, 'open')} FROM asked`,

    /**
     * open → $3 (answered, cancelled, expired): first writer wins. An answer counts only before
     * `expires_at` ($8, the caller's clock) and while its asker is alive (a host known to be gone
     * reads no answer). The request is dropped unless kept ($7) — a task's answered question keeps
     * it until sent, so that it can be asked again (`giveBack`). Returns `seq`, `held`: the
     * question of a modern durable call, whose call holds the answer from now on, and `task`: a
     * task's question, not held — its answer counts once the task's poller sent it (`delivered`),
     * or not at all (closed: its key left the task first; given back: no poller took it in time).
     */
    endQuestion: `WITH ended AS (
  ${transition({
    table: q,
    alias: 'question',
    from: ['open'],
    set: `state = $3::text, answer = $4::json, outcome = $5::text, answered_by = $6::text,
      ended_at = now(), request = CASE WHEN $7::boolean
        OR ($3::text = 'answered' AND ${ofTask(names, 'question')}) THEN question.request END`,
    where: `question.scope = $1 AND question.seq = $2::bigint
      AND ($3::text <> 'answered' OR ((question.expires_at IS NULL OR question.expires_at > $8::timestamptz)
        AND ${askerAlive(names, 'question')}))`,
    returning: `${endedColumns}, question.call_id`,
  })})
SELECT seq::text AS seq, call_id IS NOT NULL AND NOT ${ofTask(names, 'ended')} AS held,
  ${ofTask(names, 'ended')} AS task, state, answered_by, ended_at, ${notice(names, 'end')}
FROM ended`,

    /**
     * answered → open, for a task's answer ($2 of scope $1) that is not sent and that no poller
     * took to send (`sending_by`): the wait for a poller ran out, the answer is removed and the
     * question asked again (every inbox lists it; its expiry unchanged). Closed instead
     * (`unsent`) when it cannot be asked again: its request is gone, or its id is open again under
     * another row. Conditional on all of it in one statement: a poller's take (one statement too)
     * and this one are ordered by the row's lock, so an answer is either taken or given back.
     */
    giveBack: `WITH given AS (
  ${transition({
    table: q,
    alias: 'question',
    from: ['answered'],
    set: `state = CASE WHEN ${reaskable(q)} THEN 'open' ELSE 'closed' END,
      outcome = CASE WHEN ${reaskable(q)} THEN NULL ELSE 'unsent' END,
      answered_by = CASE WHEN ${reaskable(q)} THEN NULL ELSE question.answered_by END,
      ended_at = CASE WHEN ${reaskable(q)} THEN NULL ELSE question.ended_at END,
      answer = CASE WHEN ${reaskable(q)} THEN NULL WHEN $3::boolean THEN question.answer
        ELSE ${answerWithoutData('question')} END,
      request = CASE WHEN $3::boolean OR ${reaskable(q)} THEN question.request END`,
    where: `question.scope = $1 AND question.seq = $2::bigint AND question.delivered_at IS NULL
      AND question.sending_by IS NULL AND ${ofTask(names, 'question')}`,
    returning: endedColumns,
  })})
SELECT seq::text AS seq, state, CASE WHEN state = 'open' THEN ${notice(names, 'open')}
  ELSE ${notice(names, 'end')} END FROM given`,

    /** open → expired for questions past `expires_at` ($1), of one scope ($2) or of all (null). */
    expireDue: `WITH due AS (
  SELECT seq FROM ${q}
  WHERE state = 'open' AND expires_at <= $1::timestamptz AND ($2::text IS NULL OR scope = $2::text)
  ORDER BY expires_at LIMIT ${batchSize}),
ended AS (
  ${transition({
    table: q,
    alias: 'question',
    from: ['open'],
    set: `state = 'expired', outcome = 'expired', ended_at = now(),
      request = CASE WHEN $3::boolean THEN question.request END`,
    where: 'question.seq IN (SELECT seq FROM due) AND question.expires_at <= $1::timestamptz',
    returning: endedColumns,
  })}),
${announceEnded(names)}`,

    /**
     * open or answered-but-undelivered → closed, for the questions whose asking host's lease ran
     * out more than $2 ms ago: nobody will read their answers. An answer accepted in the lease
     * window after the host died is closed too, so whoever gave it learns it was not delivered.
     * Questions of durable calls belong to no host.
     */
    closeOrphans: `WITH gone AS (
  SELECT seq FROM ${q} AS question
  WHERE question.state IN ('open', 'answered') AND question.call_id IS NULL
    AND question.delivered_at IS NULL AND NOT ${askerAlive(names, 'question', '$2')}
  LIMIT ${batchSize}),
ended AS (
  ${transition({
    table: q,
    alias: 'question',
    from: ['open', 'answered'],
    set: closed('$1'),
    where: `question.seq IN (SELECT seq FROM gone) AND question.call_id IS NULL
      AND question.delivered_at IS NULL AND NOT ${askerAlive(names, 'question', '$2')}`,
    returning: endedColumns,
  })}),
${announceEnded(names)}`,

    /**
     * open or answered-but-undelivered → closed for the questions this host ($1) asked in an
     * earlier life: a host that starts again under its instance name knows nobody waits for them.
     */
    closePreviousLife: `WITH ended AS (
  ${transition({
    table: q,
    alias: 'question',
    from: ['open', 'answered'],
    set: closed('$2'),
    where: `question.seq IN (
      SELECT seq FROM ${q} WHERE asked_by = $1 AND call_id IS NULL AND delivered_at IS NULL
        AND state IN ('open', 'answered') LIMIT ${batchSize})
      AND question.asked_by = $1 AND question.call_id IS NULL AND question.delivered_at IS NULL`,
    returning: endedColumns,
  })}),
${announceEnded(names)}`,

    /**
     * The asker reads the outcome of its ended question and marks it delivered, in one statement
     * conditional on the state it read (a close that won the race leaves nothing to deliver).
     * Announces `delivered`, which is what an answerer's `submit` waits for.
     */
    deliverOutcome: `WITH delivered AS (
  UPDATE ${q} AS question SET delivered_at = now()
  FROM (SELECT seq, state, answer FROM ${q} WHERE scope = $1 AND seq = $2::bigint) AS read
  WHERE question.seq = read.seq AND question.state = read.state AND question.delivered_at IS NULL
    AND question.state IN ('answered', 'cancelled', 'expired')
  RETURNING question.seq, question.scope, question.id, read.state, read.answer)
SELECT state, answer, ${notice(names, 'delivered')} FROM delivered`,

    /** Where one question stands (for an asker whose delivery found nothing to mark). */
    questionOutcome: `SELECT state, answer, delivered_at IS NOT NULL AS delivered,
  sending_by IS NOT NULL AS taken FROM ${q} WHERE scope = $1 AND seq = $2::bigint`,

    /** Removes the data of the answers its asker has read, rows $2 of scope $1 (unless the store keeps it). */
    scrubDelivered: `UPDATE ${q} AS question SET answer = ${answerWithoutData('question')}
  WHERE question.scope = $1 AND question.seq = ANY($2::bigint[]) AND question.delivered_at IS NOT NULL`,

    /** Deletes ended questions older than $1 ms whose outcome nobody still has to read, a batch at a time. */
    deleteEnded: `DELETE FROM ${q} WHERE seq IN (
  SELECT seq FROM ${q}
  WHERE state <> 'open' AND ended_at < now() - $1::double precision * interval '1 millisecond'
    AND (delivered_at IS NOT NULL OR state = 'closed' OR (call_id IS NULL AND state <> 'answered'))
  LIMIT ${batchSize})`,

    /** The open questions of a scope whose asker is alive, oldest first, at most $2. */
    openQuestions: `SELECT question.seq::text AS seq, question.request FROM ${q} AS question
  WHERE question.scope = $1 AND question.state = 'open' AND ${askerAlive(names, 'question')}
  ORDER BY question.seq LIMIT $2`,

    /** One open question of a scope by its row, while its asker is alive. */
    openQuestionBySeq: `SELECT question.seq::text AS seq, question.request FROM ${q} AS question
  WHERE question.scope = $1 AND question.seq = $2::bigint AND question.state = 'open'
    AND ${askerAlive(names, 'question')}`,

    /** One open question of a scope by its id, while its asker is alive. */
    openQuestionById: `SELECT question.seq::text AS seq, question.request FROM ${q} AS question
  WHERE question.scope = $1 AND question.id = $2 AND question.state = 'open'
    AND ${askerAlive(names, 'question')}`,

    /** How the rows $2 (of scope $1) stand or ended: one read by primary key. */
    questionEnds: `SELECT seq::text AS seq, state, answered_by, ended_at FROM ${q}
  WHERE scope = $1 AND seq = ANY($2::bigint[])`,

    /** Where the rows $2 (of scope $1) stand: for waits and answers whose notice may be lost. */
    statesAmong: `SELECT seq::text AS seq, state, delivered_at IS NOT NULL AS delivered
  FROM ${q} WHERE scope = $1 AND seq = ANY($2::bigint[])`,

    /** Takes or renews this host's lease ($1) for $2 ms. */
    renewInstance: `INSERT INTO ${names.instances} (instance, lease_until)
  VALUES ($1, now() + $2::double precision * interval '1 millisecond')
  ON CONFLICT (instance) DO UPDATE SET lease_until = EXCLUDED.lease_until`,

    /** Forgets hosts whose lease ran out more than $1 ms ago. */
    deleteDeadInstances: `DELETE FROM ${names.instances}
  WHERE lease_until < now() - $1::double precision * interval '1 millisecond'`,

    /** Takes the sweep's lock for this transaction, or returns false: one host sweeps at a time. */
    trySweepLock: `SELECT pg_try_advisory_xact_lock(${sweepLock}, hashtext($1)) AS locked`,
  };
}

// Any fixed number: every host of one schema takes the same lock, keyed by its schema.
const sweepLock = 0x77616975;

/** The statements of the store's questions, one schema's. */
export type QuestionStatements = ReturnType<typeof questionStatements>;
