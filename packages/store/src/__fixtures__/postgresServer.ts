import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';

const run = promisify(execFile);

/** A real PostgreSQL server, started in a temporary directory for one test file. */
export interface PostgresServer {
  readonly port: number;
  /** A connection string for `database` (created by createDatabase), as the postgres superuser. */
  url(database?: string): string;
  /** Creates an empty database, so each test starts from nothing. */
  createDatabase(name: string): Promise<void>;
  /** Stops the server (fast shutdown: connections are cut), keeping its files for `start`. */
  stop(): Promise<void>;
  /** Starts the stopped server again on the same port. */
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  destroy(): Promise<void>;
}

/** The bin directory of Debian's `postgresql` package: the newest version installed. */
function binDirectory(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error('No PostgreSQL server in /usr/lib/postgresql: apt-get install postgresql');
  return join(root, versions[0]!, 'bin');
}

/** A port nobody listens on right now. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Runs a server program as the postgres user: PostgreSQL refuses to run as root. */
const asPostgres = (program: string, args: string[]) =>
  run('runuser', ['-u', 'postgres', '--', program, ...args], { timeout: 120_000 });

/** Starts a PostgreSQL server on a free 127.0.0.1 port in a fresh temporary directory. */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDirectory();
  const { uid, gid } = await run('id', ['-u', 'postgres']).then(async ({ stdout }) => ({
    uid: Number(stdout),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout),
  }));
  const root = mkdtempSync(join(tmpdir(), 'waitfor-postgres-'));
  chownSync(root, uid, gid);
  const data = join(root, 'data');
  const port = await freePort();
  await asPostgres(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const pgCtl = (...args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const start = async (): Promise<void> => {
    await pgCtl('-o', options, '-l', join(root, 'log'), '-w', '-t', '60', 'start');
  };
  const stop = async (): Promise<void> => {
    await pgCtl('-m', 'fast', '-w', 'stop').catch(() => {});
  };
  await start();
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
      await asPostgres(join(bin, 'psql'), [
        '-h',
        root,
        '-p',
        String(port),
        '-c',
        `CREATE DATABASE ${name}`,
      ]);
    },
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * Starts a PostgreSQL server before the file's tests and destroys it after them (vitest's
 * beforeAll / afterAll); returns the function that gives the running server.
 */
export function postgresForFile(): () => PostgresServer {
  let server: PostgresServer | undefined;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.destroy();
  });
  return () => {
    if (!server) throw new Error('The PostgreSQL server is not started yet');
    return server;
  };
}
