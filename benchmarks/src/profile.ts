/**
 * Where CPU time goes: samples a task with the V8 profiler (node:inspector) and sums self time
 * per origin — a package for dependencies, a file for the @waitfor packages — so a note about a
 * missed budget can name what dominates, from measurement.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { permutations } from './sampleCalls';

/** Self time of one origin in a profile. */
export interface Share {
  origin: string;
  /** Share of all samples, 0..1. */
  share: number;
}

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
}

const sourceMaps = new Map<string, SourceMap | undefined>();

/** The source file of a position in a built @waitfor dist file, through its source map. */
function originalSource(url: string, line: number, column: number): string | undefined {
  if (!sourceMaps.has(url)) {
    let map: SourceMap | undefined;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')));
    } catch {
      map = undefined;
    }
    sourceMaps.set(url, map);
  }
  const entry = sourceMaps.get(url)?.findEntry(line, column) as
    { originalSource?: string } | undefined;
  const source = entry?.originalSource;
  return source === undefined ? undefined : source.replace(/^.*\/src\//, '');
}

/** The origin of a sampled function: "@waitfor/mcp-bridge askPerson.ts", "zod", "node internals". */
export function originOf({
  url,
  functionName,
  lineNumber,
  columnNumber,
}: ProfileNode['callFrame']): string {
  if (url === '') {
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(idle)' || functionName === '(program)') return '(idle/program)';
    return '(native)';
  }
  if (url.startsWith('node:')) return 'node internals';
  const ours = /\/packages\/([^/]+)\/dist\/([^/.-]+)/.exec(url);
  if (ours) {
    const source = originalSource(url, lineNumber, columnNumber);
    return `@waitfor/${ours[1]} ${source ?? `dist/${ours[2]}`}`;
  }
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(
    url,
  );
  if (dependency) return dependency[1]!;
  return url.replace(/^file:\/\/.*\/benchmarks\//, 'benchmarks/');
}

/** Run `task` under the CPU profiler; return self-time shares per origin, largest first. */
export async function profileShares(task: () => Promise<unknown>): Promise<Share[]> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    await task();
    const { profile } = (await session.post('Profiler.stop')) as {
      profile: { nodes: ProfileNode[] };
    };
    const totals = new Map<string, number>();
    let all = 0;
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      if (hits === 0) continue;
      const origin = originOf(node.callFrame);
      totals.set(origin, (totals.get(origin) ?? 0) + hits);
      all += hits;
    }
    return [...totals]
      .map(([origin, hits]) => ({ origin, share: hits / all }))
      .sort((left, right) => right.share - left.share);
  } finally {
    await session.post('Profiler.disable').catch(() => undefined);
    session.disconnect();
  }
}

/**
 * Profile `calls` calls of each variant and return, per variant, the CPU microseconds per call
 * spent in each origin (self time). The calls are profiled in `segments` pieces per variant whose
 * order cycles through every permutation of the variants, so a change of load on the machine
 * shifts them alike instead of showing up as a difference between them.
 */
export async function selfTimeByOrigin(
  calls: number,
  variants: Record<string, (calls: number) => Promise<unknown>>,
  segments = 6,
): Promise<Record<string, Map<string, number>>> {
  const perSegment = Math.max(1, Math.round(calls / segments));
  const names = Object.keys(variants);
  const totals: Record<string, Map<string, number>> = Object.fromEntries(
    names.map((name) => [name, new Map<string, number>()]),
  );
  const orders = permutations(names);
  for (let segment = 0; segment < segments; segment++) {
    for (const name of orders[segment % orders.length]!) {
      const before = process.cpuUsage();
      const shares = await profileShares(() => variants[name]!(perSegment));
      const used = process.cpuUsage(before);
      const microseconds = used.user + used.system;
      const total = totals[name]!;
      for (const share of shares)
        total.set(share.origin, (total.get(share.origin) ?? 0) + share.share * microseconds);
    }
  }
  const profiled = perSegment * segments;
  for (const total of Object.values(totals))
    for (const [origin, microseconds] of total) total.set(origin, microseconds / profiled);
  return totals;
}
