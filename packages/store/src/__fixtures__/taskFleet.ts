/**
 * The task fleet tests' setting: a real PostgreSQL and a tasks server for the enclosing file, the host
 * processes it starts (hosts.ts) killed after it, and the store of the host that makes the calls.
 */
import { afterAll, beforeAll } from 'vitest';
import { createStore, postgresDriver, type Store } from '../index';
import { killHosts } from './hosts';
import { startPostgres, type PostgresServer } from './postgresServer';

/** PostgreSQL and the tasks server `startTasks` opens, for the enclosing file; read them in tests. */
export function useFleet<Tasks extends { close(): Promise<unknown> }>(
  startTasks: () => Promise<Tasks>,
) {
  let postgres: PostgresServer | undefined;
  let tasks: Tasks | undefined;
  beforeAll(async () => {
    [postgres, tasks] = await Promise.all([startPostgres(), startTasks()]);
  });
  afterAll(async () => {
    killHosts();
    await Promise.all([postgres?.destroy(), tasks?.close()]);
  });
  const running = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the fleet is not running: read it in a test');
    return value;
  };
  return {
    get tasks(): Tasks {
      return running(tasks);
    },
    /** A new database on the fleet's PostgreSQL; its connection string. */
    async database(name: string): Promise<string> {
      await running(postgres).createDatabase(name);
      return running(postgres).url(name);
    },
    /** The store of the host that makes the calls, in this process: notices only, no polling. */
    maker: (url: string): Promise<Store> =>
      createStore({
        driver: postgresDriver({ connectionString: url }),
        instance: 'maker',
        pollMs: 0,
      }),
  };
}
