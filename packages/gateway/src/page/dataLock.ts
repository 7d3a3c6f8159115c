/**
 * One gateway per data directory. PGlite allows one process per directory, and two hosts that list
 * the same server (a desktop app and an editor) start two gateways with the same default directory,
 * so the page takes a lock before it opens the store; a directory another gateway holds is passed
 * over for the next slot (`<dir>/2`, `<dir>/3`, …), so the second gateway still keeps its questions.
 *
 * The lock is one the operating system drops with its process, however it ends (kill -9 too), so a
 * crashed gateway never leaves a directory locked: a socket bound to a name in Linux's abstract
 * namespace, a named pipe on Windows. Elsewhere (macOS) it is a `lock` file holding the process id,
 * taken over when that process no longer runs; two gateways starting in the same instant after a
 * crash could both take over a stale file there — a window the other platforms do not have.
 */
import { createHash } from 'node:crypto';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';

/** A held data directory; `release` lets the next gateway take it. */
export interface DataLock {
  readonly dir: string;
  release(): Promise<void>;
}

/** Slots tried after the directory itself before giving up. */
export const MAX_SLOTS = 8;

/** The slot directories of `dataDir`, the directory itself first. */
export const slotsOf = (dataDir: string): string[] =>
  Array.from({ length: MAX_SLOTS }, (_, index) =>
    index === 0 ? dataDir : join(dataDir, String(index + 1)),
  );

const socketName = (dir: string): string | undefined => {
  const digest = createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 32);
  if (process.platform === 'linux') return `\0waitfor-gateway-${digest}`;
  if (process.platform === 'win32') return `\\\\.\\pipe\\waitfor-gateway-${digest}`;
  return undefined;
};

/** Bind `name` (false when another process holds it). */
function bind(name: string): Promise<Server | false> {
  return new Promise((settle, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? settle(false) : reject(error),
    );
    server.listen(name, () => {
      server.unref();
      settle(server);
    });
  });
}

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The pid-file lock of platforms without a socket the OS drops (see the module comment); exported for its test. */
export async function pidLock(dir: string): Promise<DataLock | undefined> {
  const path = join(dir, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, String(process.pid), { flag: 'wx', mode: 0o600 });
      return { dir, release: () => unlink(path).catch(() => undefined) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(holder) && holder > 0 && running(holder)) return undefined;
      await unlink(path).catch(() => undefined);
    }
  }
  return undefined;
}

/** Take `dir` if no other gateway holds it. The directory must exist (for the pid-file lock). */
export async function lockDir(dir: string): Promise<DataLock | undefined> {
  const name = socketName(dir);
  if (name === undefined) return pidLock(dir);
  const server = await bind(name);
  if (server === false) return undefined;
  return { dir, release: () => new Promise((done) => server.close(() => done())) };
}
