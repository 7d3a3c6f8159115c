import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const appDir = fileURLToPath(new URL('..', import.meta.url));
const child = fileURLToPath(new URL('./hostedChild.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./tsx.tsconfig.json', import.meta.url));

/** A hosted example host running in a process of its own. */
export interface HostProcess {
  process: ChildProcess;
  url: string;
}

/**
 * Starts the hosted example in its own process, on the packages' sources (as vitest runs them);
 * resolves with its URL once it listens.
 */
export async function startHostProcess(
  dataDir: string,
  dist: string,
  port: number,
): Promise<HostProcess> {
  // Node itself with tsx's loader (not the tsx CLI, which runs a second process): the pid killed
  // is the host's.
  const host = spawn(process.execPath, ['--import', 'tsx', child, dataDir, dist, String(port)], {
    cwd: appDir,
    env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: host.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    host.once('exit', (code) => reject(new Error(`The host exited (${code}) before it listened`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  return { process: host, url };
}

/** Ends a host process at once, as a crash would (SIGKILL), and waits until it is gone. */
export async function killHost(host: ChildProcess): Promise<void> {
  if (host.exitCode !== null || host.signalCode !== null) return;
  const exited = new Promise((resolve) => host.once('exit', resolve));
  host.kill('SIGKILL');
  await exited;
}
