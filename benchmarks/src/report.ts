/** Renders benchmark results as the console table and as BENCHMARKS.md. */
import { ms, times } from './format';
import type { Machine } from './machine';
import { withinBudget, type BenchResult, type Figure } from './result';

/** A figure's value with its unit, e.g. "1.04×", "2.31 ms", "412 bytes", "7.26 KB". */
export function formatValue(figure: Figure): string {
  switch (figure.unit) {
    case 'ms':
      return ms(figure.value);
    case '×':
      return times(figure.value);
    case 'KB':
      return `${figure.value.toFixed(2)} KB`;
    case 'bytes':
      return `${Math.round(figure.value).toLocaleString('en-US')} bytes`;
    default:
      return Number.isInteger(figure.value) ? String(figure.value) : figure.value.toFixed(1);
  }
}

const verdict = (figure: Figure): string =>
  figure.budget === undefined ? '' : withinBudget(figure) ? 'yes' : '**NO**';

/** Escape a table cell. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** One markdown table row per figure of every result. */
export function figureTable(results: readonly BenchResult[]): string[] {
  const lines = [
    '| benchmark | figure | value | runs | budget | within | detail |',
    '|---|---|---:|---:|---:|:---:|---|',
  ];
  for (const result of results) {
    for (const figure of result.figures) {
      lines.push(
        `| ${cell(result.title)} | ${cell(figure.name)} | ${formatValue(figure)} | ${figure.runs} | ` +
          `${figure.budget?.label ?? ''} | ${verdict(figure)} | ${cell(figure.detail ?? '')} |`,
      );
    }
  }
  return lines;
}

/** Benchmarks that failed to run, with their error. */
export interface Failure {
  id: string;
  error: string;
}

/** The whole BENCHMARKS.md. */
export function renderMarkdown(
  machine: Machine,
  results: readonly BenchResult[],
  failures: readonly Failure[],
  seconds: number,
): string {
  const budgeted = results.flatMap((result) => result.figures).filter((figure) => figure.budget);
  const missed = budgeted.filter((figure) => !withinBudget(figure));
  const lines = [
    '# Benchmarks',
    '',
    '<!-- Written by `pnpm bench` (benchmarks/src/main.ts). Do not edit by hand: re-run it. -->',
    '',
    'Run them all with `pnpm bench` at the repository root (builds the packages, then runs ' +
      '`benchmarks/`, about a minute on a 2-core machine); `pnpm bench modern-loop react` ' +
      'runs only the named ones and prints their table without rewriting this file (add `--write` ' +
      'to rewrite it). Sources: `benchmarks/src/`.',
    '',
    `Run on ${machine.date.slice(0, 10)} (${machine.date}), ${seconds.toFixed(0)} s in all. ` +
      'The packages are measured as built (`dist`), imported by name. Benchmarks 3–5 and 7 give the ' +
      'median of the runs shown. Benchmarks 1 and 2 compare two variants (a ÷ b) called one after ' +
      "the other, call by call, in one process over the SDK's in-memory transport, so their " +
      'budgets apply to CPU time (user + system, `process.cpuUsage()`): it is the work the code ' +
      'does and, unlike wall time, barely moves when other processes load the machine. Their ' +
      'values pool every run: per call, the mean over regular calls, plus the garbage-collection ' +
      'time shared by the bytes each variant allocated, plus the time of stalls no call asked ' +
      'for shared by the time each variant ran (which call pays for a collection or a stall is ' +
      'chance, and together they are a third of the CPU time). Beside each ratio stands its A/A ' +
      'control — the baseline against a second identical copy of itself, measured the same way in ' +
      "the same run — whose distance from 1 is the noise floor of that ratio, and the ratio's " +
      'detail gives ± two standard errors from the spread of its per-run values. The control catches ' +
      'noise in the measuring; it cannot catch load that treats different code differently (cache ' +
      'pressure from other processes), so on a busy machine a ratio may also shift by a few ' +
      'hundredths from run to run. Wall time is shown ' +
      "too; CPU time may exceed it because V8's helper threads (garbage collection, compilation) " +
      'count.',
    '',
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${machine.cpu} |`,
    `| cores | ${machine.cores} |`,
    `| memory | ${machine.memoryGiB} GiB |`,
    `| Node.js | ${machine.node} |`,
    `| OS | ${machine.os} |`,
    `| load average (1 min) at start / end | ${machine.loadAtStart.toFixed(2)} / ${(machine.loadAtEnd ?? NaN).toFixed(2)} |`,
    '',
  ];
  if (Math.max(machine.loadAtStart, machine.loadAtEnd ?? 0) > machine.cores * 0.75) {
    lines.push(
      `> The machine was busy during this run (load ${Math.max(machine.loadAtStart, machine.loadAtEnd ?? 0).toFixed(1)} on ` +
        `${machine.cores} cores): absolute timings are inflated and ratios are noisier than on a ` +
        'quiet machine. Re-run `pnpm bench` at a quiet moment for figures to quote.',
      '',
    );
  }
  lines.push(
    '## Budgets',
    '',
    missed.length === 0
      ? `All ${budgeted.length} budgeted figures are within budget.`
      : `${budgeted.length - missed.length} of ${budgeted.length} budgeted figures are within budget; ` +
          `missed: ${missed.map((figure) => figure.name).join('; ')}. The notes below say why.`,
    '',
    '## All figures',
    '',
    ...figureTable(results),
    '',
  );
  for (const result of results) {
    lines.push(`## ${result.title}`, '', result.method, '');
    for (const note of result.notes) lines.push(`- ${note}`);
    if (result.notes.length > 0) lines.push('');
  }
  if (failures.length > 0) {
    lines.push('## Benchmarks that failed to run', '');
    for (const failure of failures) lines.push(`- \`${failure.id}\`: ${failure.error}`);
    lines.push('');
  }
  return lines.join('\n');
}
