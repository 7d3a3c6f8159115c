import type { Driver } from './drivers/driver';
import { StoreError } from './storeError';

/**
 * The schema, one entry per version, never edited once released: a change is a new entry. Each
 * statement runs on its own (PGlite's extended protocol takes one statement per query).
 */
export const migrations: readonly (readonly string[])[] = [
  [
    `CREATE TABLE waitfor_questions (
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
    `CREATE UNIQUE INDEX waitfor_questions_open ON waitfor_questions (scope, id) WHERE state = 'open'`,
    `CREATE INDEX waitfor_questions_scope ON waitfor_questions (scope, seq) WHERE state = 'open'`,
    `CREATE INDEX waitfor_questions_expiry ON waitfor_questions (expires_at)
      WHERE state = 'open' AND expires_at IS NOT NULL`,
    `CREATE INDEX waitfor_questions_ended ON waitfor_questions (ended_at) WHERE state <> 'open'`,
  ],
  [
    // Durable modern-era calls: the suspension waits here while its questions are open.
    `CREATE TABLE waitfor_calls (
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
    `CREATE INDEX waitfor_calls_claimable ON waitfor_calls (created_at)
      WHERE state IN ('ready', 'running')`,
    `ALTER TABLE waitfor_questions ADD COLUMN call_id text`,
    `CREATE INDEX waitfor_questions_call ON waitfor_questions (call_id) WHERE call_id IS NOT NULL`,
    // When the last open question of a call ends, the call is ready, in the same transaction. The
    // call row is locked first: two questions ended at once by two hosts are counted one after the
    // other, so one of them sees the other's end and neither call is left waiting.
    `CREATE FUNCTION waitfor_question_ended() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM waitfor_calls WHERE call_id = NEW.call_id FOR UPDATE;
      IF NOT EXISTS (
        SELECT 1 FROM waitfor_questions WHERE call_id = NEW.call_id AND state = 'open'
      ) THEN
        UPDATE waitfor_calls SET state = 'ready' WHERE call_id = NEW.call_id AND state = 'waiting';
        IF FOUND THEN
          PERFORM pg_notify('waitfor_store', json_build_object('c', NEW.call_id, 'e', 'ready')::text);
        END IF;
      END IF;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER waitfor_question_ended AFTER UPDATE OF state ON waitfor_questions
      FOR EACH ROW WHEN (NEW.call_id IS NOT NULL AND OLD.state = 'open' AND NEW.state <> 'open')
      EXECUTE FUNCTION waitfor_question_ended()`,
  ],
  [
    // The hosts of a fleet, each with a lease it renews: a question someone waits for in memory
    // belongs to its host, and is closed for everyone once that host's lease runs out.
    `CREATE TABLE waitfor_instances (
      instance text PRIMARY KEY,
      lease_until timestamptz NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
];

// Any fixed number: every copy of the store takes the same lock, so only one migrates at a time.
const migrationLock = 0x77616974;

/**
 * Brings the database to the newest schema version. Safe when many hosts start at once: the
 * transaction-scoped advisory lock lets one migrate while the others wait, then find nothing to do.
 */
export async function migrate(driver: Driver): Promise<number> {
  return driver.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLock]);
    await tx.query(`CREATE TABLE IF NOT EXISTS waitfor_migrations (
      version integer PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const [row] = await tx.query(
      'SELECT coalesce(max(version), 0) AS version FROM waitfor_migrations',
    );
    const current = Number(row?.version);
    if (current > migrations.length)
      throw new StoreError(
        'migration_failed',
        `The database has schema version ${current}; this @waitfor/store knows up to ${migrations.length}`,
      );
    for (let version = current + 1; version <= migrations.length; version++) {
      for (const statement of migrations[version - 1]!) await tx.query(statement);
      await tx.query('INSERT INTO waitfor_migrations (version) VALUES ($1)', [version]);
    }
    return migrations.length;
  });
}
