import type { Driver } from './drivers/driver';
import type { Names } from './names';
import { namesOf } from './names';
import { StoreError } from './storeError';

/**
 * The schema of the store in `schema`, one entry per version, never changed once released: a
 * change is a new entry. Each statement runs on its own (PGlite's extended protocol takes one
 * statement per query). `migrationScript` prints them as one script a DBA can read or run.
 */
export function migrationsOf(names: Names): readonly (readonly string[])[] {
  const { questions, calls, instances, questionEnded, channel } = names;
  return [
    [
      `CREATE TABLE ${questions} (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      scope text NOT NULL,
      id text NOT NULL,
      kind text NOT NULL,
      request jsonb,
      origin jsonb,
      state text NOT NULL DEFAULT 'open'
        CHECK (state IN ('open', 'answered', 'cancelled', 'expired', 'closed')),
      expires_at timestamptz,
      asked_by text NOT NULL,
      asked_at timestamptz NOT NULL DEFAULT now(),
      answer jsonb,
      outcome text,
      answered_by text,
      ended_at timestamptz,
      delivered_at timestamptz
    )`,
      // One open question per id and scope; ended ones stay beside it for the audit.
      `CREATE UNIQUE INDEX waitfor_questions_open ON ${questions} (scope, id) WHERE state = 'open'`,
      `CREATE INDEX waitfor_questions_scope ON ${questions} (scope, seq) WHERE state = 'open'`,
      `CREATE INDEX waitfor_questions_expiry ON ${questions} (expires_at)
      WHERE state = 'open' AND expires_at IS NOT NULL`,
      `CREATE INDEX waitfor_questions_ended ON ${questions} (ended_at) WHERE state <> 'open'`,
    ],
    [
      // Durable modern-era calls: the suspension waits here while its questions are open.
      `CREATE TABLE ${calls} (
      call_id text PRIMARY KEY,
      scope text NOT NULL,
      server_key text NOT NULL,
      state text NOT NULL CHECK (state IN ('waiting', 'ready', 'running', 'complete', 'failed')),
      suspension jsonb,
      round integer NOT NULL DEFAULT 1,
      trace jsonb NOT NULL DEFAULT '[]'::jsonb,
      result jsonb,
      error jsonb,
      claimed_by text,
      lease_until timestamptz,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      ended_at timestamptz
    )`,
      `CREATE INDEX waitfor_calls_claimable ON ${calls} (created_at)
      WHERE state IN ('ready', 'running')`,
      `ALTER TABLE ${questions} ADD COLUMN call_id text`,
      `CREATE INDEX waitfor_questions_call ON ${questions} (call_id) WHERE call_id IS NOT NULL`,
      // When the last open question of a call ends, the call is ready, in the same transaction. The
      // call row is locked first: two questions ended at once by two hosts are counted one after the
      // other, so one of them sees the other's end and neither call is left waiting.
      `CREATE FUNCTION ${questionEnded}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM ${calls} WHERE call_id = NEW.call_id FOR UPDATE;
      IF NOT EXISTS (
        SELECT 1 FROM ${questions} WHERE call_id = NEW.call_id AND state = 'open'
      ) THEN
        UPDATE ${calls} SET state = 'ready' WHERE call_id = NEW.call_id AND state = 'waiting';
        IF FOUND THEN
          PERFORM pg_notify('${channel}', json_build_object('c', NEW.call_id, 'e', 'ready')::text);
        END IF;
      END IF;
      RETURN NULL;
    END $$`,
      `CREATE TRIGGER waitfor_question_ended AFTER UPDATE OF state ON ${questions}
      FOR EACH ROW WHEN (NEW.call_id IS NOT NULL AND OLD.state = 'open' AND NEW.state <> 'open')
      EXECUTE FUNCTION ${questionEnded}()`,
    ],
    [
      // The hosts of a fleet, each with a lease it renews: a question someone waits for in memory
      // belongs to its host, and is closed for everyone once that host's lease runs out.
      `CREATE TABLE ${instances} (
      instance text PRIMARY KEY,
      lease_until timestamptz NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now()
    )`,
    ],
    [
      // What the person sees is what was asked: `json` keeps the text as written (key order, and
      // the \u0000 escape that jsonb refuses); `jsonb` re-ordered a form's fields on the way back.
      `ALTER TABLE ${questions} ALTER COLUMN request TYPE json USING request::json`,
      `ALTER TABLE ${questions} ALTER COLUMN answer TYPE json USING answer::json`,
      `ALTER TABLE ${questions} ALTER COLUMN origin TYPE json USING origin::json`,
      `ALTER TABLE ${calls} ALTER COLUMN suspension TYPE json USING suspension::json`,
      `ALTER TABLE ${calls} ALTER COLUMN result TYPE json USING result::json`,
      // The queue's own columns: how many times the call was claimed, and when it is due again.
      `ALTER TABLE ${calls} ADD COLUMN attempts integer NOT NULL DEFAULT 0`,
      `ALTER TABLE ${calls} ADD COLUMN run_at timestamptz NOT NULL DEFAULT now()`,
      // One partial index per way a call is claimed, and one for deleting ended calls.
      `DROP INDEX ${names.schema}.waitfor_calls_claimable`,
      `CREATE INDEX waitfor_calls_ready ON ${calls} (run_at) WHERE state = 'ready'`,
      `CREATE INDEX waitfor_calls_running ON ${calls} (lease_until) WHERE state = 'running'`,
      `CREATE INDEX waitfor_calls_ended ON ${calls} (ended_at) WHERE state IN ('complete', 'failed')`,
      // The questions the orphan sweep looks at: not yet read by a host that asked them in memory.
      `CREATE INDEX waitfor_questions_undelivered ON ${questions} (asked_by)
        WHERE call_id IS NULL AND delivered_at IS NULL AND state IN ('open', 'answered')`,
      // A call becomes due when its last question ends (run_at), announced on this schema's channel.
      `CREATE OR REPLACE FUNCTION ${questionEnded}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM ${calls} WHERE call_id = NEW.call_id FOR UPDATE;
        IF NOT EXISTS (
          SELECT 1 FROM ${questions} WHERE call_id = NEW.call_id AND state = 'open'
        ) THEN
          UPDATE ${calls} SET state = 'ready', run_at = now()
            WHERE call_id = NEW.call_id AND state = 'waiting';
          IF FOUND THEN
            PERFORM pg_notify('${channel}', json_build_object('c', NEW.call_id, 'e', 'ready')::text);
          END IF;
        END IF;
        RETURN NULL;
      END $$`,
      // Earlier versions claimed a waiting call without open questions through a scan; such a call
      // is ready now.
      `UPDATE ${calls} AS call SET state = 'ready', run_at = now()
        WHERE call.state = 'waiting' AND NOT EXISTS (
          SELECT 1 FROM ${questions} AS question
          WHERE question.call_id = call.call_id AND question.state = 'open')`,
    ],
    [
      // Task-backed calls: polled by the one host holding the lease for as long as the task runs,
      // their saved suspension replaced at each change, fenced by the holder and this version.
      `ALTER TABLE ${calls} ADD COLUMN kind text NOT NULL DEFAULT 'modern'
        CHECK (kind IN ('modern', 'task'))`,
      `ALTER TABLE ${calls} ADD COLUMN version integer NOT NULL DEFAULT 0`,
      // A task call is never waiting: each question that ends wakes its poller (any host's notice
      // of the call), without locking the call row — its poller locks the call, then the questions
      // it ends, and an answer that locked the question first must not wait on the call. A modern
      // call is due once its last question ended, as before (its row locked: see version 2).
      `CREATE OR REPLACE FUNCTION ${questionEnded}() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        call_kind text;
      BEGIN
        SELECT kind INTO call_kind FROM ${calls} WHERE call_id = NEW.call_id;
        IF call_kind = 'task' THEN
          PERFORM pg_notify('${channel}', json_build_object('c', NEW.call_id, 'e', 'ready')::text);
          RETURN NULL;
        END IF;
        PERFORM 1 FROM ${calls} WHERE call_id = NEW.call_id FOR UPDATE;
        IF NOT EXISTS (
          SELECT 1 FROM ${questions} WHERE call_id = NEW.call_id AND state = 'open'
        ) THEN
          UPDATE ${calls} SET state = 'ready', run_at = now()
            WHERE call_id = NEW.call_id AND state = 'waiting';
          IF FOUND THEN
            PERFORM pg_notify('${channel}', json_build_object('c', NEW.call_id, 'e', 'ready')::text);
          END IF;
        END IF;
        RETURN NULL;
      END $$`,
    ],
    [
      // The poller that took a task's answer to send it (tasks/update), set in one statement before
      // it sends: an answer taken is never given back to the person, one not taken is never sent.
      `ALTER TABLE ${questions} ADD COLUMN sending_by text`,
    ],
  ];
}

// Any fixed number: every copy of the store takes the same lock, so only one migrates at a time.
const migrationLock = 0x77616974;

/** The statements that create the schema and its version table, before the first migration. */
const bookkeeping = (names: Names): string[] => [
  ...(names.schema === 'public' ? [] : [`CREATE SCHEMA IF NOT EXISTS ${names.schema}`]),
  `CREATE TABLE IF NOT EXISTS ${names.migrations} (
      version integer PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`,
];

/**
 * Brings the store's schema to the newest version. Safe when many hosts start at once: the
 * transaction-scoped advisory lock lets one migrate while the others wait, then find nothing to do.
 */
export async function applyMigrations(driver: Driver, names: Names): Promise<number> {
  const all = migrationsOf(names);
  return driver.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLock]);
    for (const statement of bookkeeping(names)) await tx.query(statement);
    const [row] = await tx.query(
      `SELECT coalesce(max(version), 0) AS version FROM ${names.migrations}`,
    );
    const current = Number(row?.version);
    if (current > all.length)
      throw new StoreError(
        'migration_failed',
        `The database has schema version ${current}; this @waitfor/store knows up to ${all.length}`,
      );
    for (let version = current + 1; version <= all.length; version++) {
      for (const statement of all[version - 1]!) await tx.query(statement);
      await tx.query(`INSERT INTO ${names.migrations} (version) VALUES ($1)`, [version]);
    }
    return all.length;
  });
}

/**
 * The whole schema of a store as one SQL script, for a DBA to read, review or run by hand (then
 * `createStore` finds nothing left to do). `fromVersion` skips the versions already applied.
 */
export function migrationScript(options: { schema?: string; fromVersion?: number } = {}): string {
  const names = namesOf(options.schema);
  const all = migrationsOf(names);
  const fromVersion = options.fromVersion ?? 0;
  const parts = [
    'BEGIN;',
    `SELECT pg_advisory_xact_lock(${migrationLock});`,
    ...bookkeeping(names).map((statement) => `${statement};`),
  ];
  for (let version = fromVersion + 1; version <= all.length; version++) {
    parts.push(`-- version ${version}`);
    for (const statement of all[version - 1]!) parts.push(`${statement};`);
    parts.push(`INSERT INTO ${names.migrations} (version) VALUES (${version});`);
  }
  parts.push('COMMIT;');
  return `${parts.join('\n\n')}\n`;
}

/**
 * Brings the store's tables in `schema` (default `public`) to the newest version, as `createStore`
 * does on start; resolves with that version.
 */
export function migrate(driver: Driver, options: { schema?: string } = {}): Promise<number> {
  return applyMigrations(driver, namesOf(options.schema));
}

/** The newest schema version this copy of the store knows. */
export const schemaVersion: number = migrationsOf(namesOf()).length;
