import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const tsx = fileURLToPath(new URL('../../../../node_modules/.bin/tsx', import.meta.url));
const script = fileURLToPath(new URL('./host.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./tsconfig.child.json', import.meta.url));

/** A host process (host.ts) driven by JSON commands. */
export interface HostProcess {
  readonly instance: string;
  /** Sends a command and resolves with its reply (rejects with the host's error). */
  send(op: string, fields?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** kill -9 of the whole process group (tsx and its node child); resolves once it exited. */
  kill(): Promise<void>;
  /** Resolves once the process exited. */
  readonly exited: Promise<unknown>;
}

const groups = new Set<number>();

/** Kills every host process still running (for afterAll). */
export function killHosts(): void {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  groups.clear();
}

/**
 * Starts host.ts (or `script`, taking the same first five arguments, then `extra`) for `instance`
 * on `database` (a postgres:// URL or a PGlite data directory), resolving once it printed `ready`.
 */
export async function startHost(
  database: string,
  instance: string,
  mcpUrl: string,
  { leaseMs = 1_000, pollMs = 500, script: path = script, extra = [] as string[] } = {},
): Promise<HostProcess> {
  const args = ['--tsconfig', tsconfig, path, database, instance, mcpUrl];
  // Its own process group: tsx runs the script in a node child, and kill -9 must reach both.
  const child = spawn(tsx, [...args, String(leaseMs), String(pollMs), ...extra], {
    detached: true,
  });
  groups.add(child.pid!);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pending = new Map<number, (reply: Record<string, unknown>) => void>();
  // A host that is gone answers nothing more: its pending commands fail.
  void exited.then(() => {
    for (const settle of pending.values()) settle({ error: `host ${instance} exited` });
    pending.clear();
  });
  let ready: (() => void) | undefined;
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    void exited.then(() => reject(new Error(`host ${instance} exited: ${stderr}`)));
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const message = JSON.parse(line) as Record<string, unknown>;
    if (message.ready !== undefined) return ready?.();
    pending.get(Number(message.n))?.(message);
    pending.delete(Number(message.n));
  });
  await started;
  let next = 0;
  return {
    instance,
    exited,
    send(op, fields = {}) {
      const n = ++next;
      return new Promise((resolve, reject) => {
        pending.set(n, (message) =>
          message.error === undefined
            ? resolve(message)
            : reject(new Error(`${instance}: ${String(message.error)}`)),
        );
        child.stdin.write(`${JSON.stringify({ n, op, ...fields })}\n`);
      });
    },
    async kill() {
      process.kill(-child.pid!, 'SIGKILL');
      groups.delete(child.pid!);
      await exited;
    },
  };
}
