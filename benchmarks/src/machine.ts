/** The machine a run happened on, as written into BENCHMARKS.md. */
import { cpus, loadavg, totalmem, platform, release } from 'node:os';

/** What is known about the machine and the moment of a run. */
export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  date: string;
  /** 1-minute load average when the run started and ended (busy machines skew timings). */
  loadAtStart: number;
  loadAtEnd?: number;
}

/** Describe this machine now. */
export function describeMachine(): Machine {
  const processors = cpus();
  return {
    cpu: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
    date: new Date().toISOString(),
    loadAtStart: loadavg()[0] ?? 0,
  };
}

/** The 1-minute load average now. */
export const currentLoad = (): number => loadavg()[0] ?? 0;
