import type { Pool, PoolClient } from 'pg';
import { StoreError, storeErrorOf } from '../storeError';
import type { Driver, Queryable } from './driver';
import { guarded } from './driver';

/**
 * The part of a `pg` Pool the store uses: a `pg.Pool` is one. Declared here so that the store's
 * types need neither `pg` nor `@types/pg` (a host on PGlite never installs them).
 */
export interface PostgresPool {
  connect(): Promise<unknown>;
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
}

/** Options of postgresDriver: a Pool the host gives, or a connection string for a pool of the store's own. */
export interface PostgresDriverOptions {
  /** A `pg` Pool the host owns (and closes). The store holds one of its clients for LISTEN. */
  pool?: PostgresPool;
  /** A connection string; the store then opens (and closes) a Pool of its own. */
  connectionString?: string;
  /** The most connections of the store's own pool (default 10). */
  max?: number;
  /** How long to wait before listening again after the LISTEN connection is lost (default 1000 ms). */
  reconnectMs?: number;
}

const identifier = /^[a-z_][a-z0-9_]{0,62}$/;

/** Runs `work` with one client, keeping the process alive if its connection drops between statements. */
async function withClient<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // Without a listener, an error between two statements would be an uncaught 'error' event.
  const ignore = (): void => {};
  client.on('error', ignore);
  let broken: unknown;
  try {
    return await work(client);
  } catch (error) {
    broken = error;
    throw error;
  } finally {
    client.off('error', ignore);
    // A client whose connection failed must not go back into the pool.
    client.release(broken !== undefined && storeErrorOf(broken).code === 'unavailable');
  }
}

const queryable = (target: Pick<Pool, 'query'> | PoolClient): Queryable => ({
  query: (sql, params = []) =>
    guarded(async () => (await target.query(sql, [...params])).rows, storeErrorOf),
});

/** The pool the driver uses: the host's, or its own from `connectionString` (then `own`). */
async function openPool(options: PostgresDriverOptions): Promise<{ pool: Pool; own: boolean }> {
  // A pg.Pool by its contract (PostgresPool is its shape, declared without pg's types).
  if (options.pool) return { pool: options.pool as Pool, own: false };
  if (typeof options.connectionString !== 'string' || options.connectionString === '')
    throw new StoreError('invalid_options', 'postgresDriver needs a pool or a connectionString');
  // Loaded on demand: `pg` is an optional peer, needed only by hosts that use this driver.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    // A server that does not answer is reported as unavailable, not waited for forever.
    connectionTimeoutMillis: 10_000,
  });
  // An idle client that loses its server must not crash the host: the next query reports it.
  pool.on('error', () => {});
  return { pool, own: true };
}

/** Runs `work` in one transaction on a client of its own: committed, or rolled back on a throw. */
const transaction = <T>(pool: Pool, work: (tx: Queryable) => Promise<T>): Promise<T> =>
  guarded(
    () =>
      withClient(pool, async (client) => {
        await client.query('BEGIN');
        try {
          const result = await work(queryable(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        }
      }),
    storeErrorOf,
  );

/**
 * LISTENs on `channel` with a client of its own, listening again `reconnectMs` after a lost
 * connection (then `onResumed`); returns the function that stops.
 */
async function listen(
  pool: Pool,
  reconnectMs: number,
  channel: string,
  onMessage: (payload: string) => void,
  onResumed: () => void,
): Promise<() => Promise<void>> {
  if (!identifier.test(channel))
    throw new StoreError('invalid_options', `Channel ${channel} is no plain identifier`);
  let client: PoolClient | undefined;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const lost = (): void => {
    client?.release(true);
    client = undefined;
    if (!stopped) again();
  };
  const again = (): void => {
    retry = setTimeout(() => {
      connect().then(onResumed, again);
    }, reconnectMs);
    retry.unref?.();
  };
  const connect = async (): Promise<void> => {
    const next = await pool.connect();
    // An error, or an end without one (the server closed the connection): listen again.
    next.on('error', () => {
      if (client === next) lost();
    });
    next.on('end', () => {
      if (client === next) lost();
    });
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    try {
      // The channel is checked above: an identifier cannot be a parameter.
      await next.query(`LISTEN ${channel}`);
    } catch (error) {
      next.release(true);
      throw error;
    }
    if (stopped) return next.release();
    client = next;
  };
  await guarded(connect, storeErrorOf);
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    if (!last) return;
    await last.query(`UNLISTEN ${channel}`).then(
      () => last.release(),
      () => last.release(true),
    );
  };
}

/**
 * The fleet driver: PostgreSQL through `pg` (a peer dependency). Every host of a fleet points at
 * the same database; LISTEN/NOTIFY tells each of them what the others did.
 */
export async function postgresDriver(options: PostgresDriverOptions): Promise<Driver> {
  const reconnectMs = options.reconnectMs ?? 1000;
  if (!(reconnectMs >= 0))
    throw new StoreError('invalid_options', 'reconnectMs must be a number ≥ 0');
  const { pool, own } = await openPool(options);
  return {
    ...queryable(pool),
    transaction: (work) => transaction(pool, work),
    listen: (channel, onMessage, onResumed) =>
      listen(pool, reconnectMs, channel, onMessage, onResumed),
    async close() {
      if (own) await guarded(() => pool.end(), storeErrorOf);
    },
  };
}
