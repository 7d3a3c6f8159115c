/** Number formatting shared by the benchmarks and the report. */

/** A ratio as "1.04×". */
export const times = (value: number): string => `${value.toFixed(2)}×`;

/** Milliseconds with a precision that suits their size (a negative value: its magnitude's, signed). */
export function ms(value: number): string {
  const size = Math.abs(value);
  if (size >= 100) return `${value.toFixed(0)} ms`;
  if (size >= 1) return `${value.toFixed(2)} ms`;
  if (size >= 0.001) return `${(value * 1000).toFixed(1)} µs`;
  return `${(value * 1e6).toFixed(0)} ns`;
}

/** Bytes as "1.23 KB" (1 KB = 1024 bytes, as the size budgets are written). */
export const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;
