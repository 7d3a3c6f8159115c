/** The shape every benchmark reports back to the runner (JSON, across a process boundary). */

/** Prefix of the child's stdout line that carries its JSON result. */
export const RESULT_MARKER = '@@waitfor-bench-result ';

/** A limit a figure must stay within. */
export interface Budget {
  /** The figure must be ≤ this. */
  max: number;
  /** How the limit reads in the table, e.g. "≤ 1.10". */
  label: string;
}

/** One figure of a benchmark: a median over `runs` runs. */
export interface Figure {
  /** What was measured, e.g. "bridge callTool ÷ SDK automatic loop". */
  name: string;
  value: number;
  /** e.g. "ms", "×", "bytes", "KB". */
  unit: string;
  /** How many runs the median is taken over (1 for a deterministic figure such as a size). */
  runs: number;
  budget?: Budget;
  /** A short remark shown beside the figure (e.g. the two medians behind a ratio). */
  detail?: string;
}

/** What one benchmark reports. */
export interface BenchResult {
  id: string;
  title: string;
  /** One sentence: what is measured and how. */
  method: string;
  figures: Figure[];
  /** Notes written from measurement, e.g. why a budget is missed and what would fix it. */
  notes: string[];
}

/** True when the figure has no budget or stays within it. */
export const withinBudget = (figure: Figure): boolean =>
  figure.budget === undefined || figure.value <= figure.budget.max;
