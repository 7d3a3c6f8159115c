/** Reconnection timing: bounded attempts, exponential delays with jitter. */

/** How a lost Streamable HTTP connection is retried. */
export interface ReconnectOptions {
  /** Attempts before the connection is closed for good (default 5; 0 turns reconnection off). */
  maxAttempts?: number;
  /** Delay before the first attempt, in ms (default 500). */
  initialDelay?: number;
  /** Upper bound of one delay, in ms (default 10 000). */
  maxDelay?: number;
  /** Growth of the delay per attempt (default 2). */
  factor?: number;
}

/** @internal The delay before `attempt` (1-based): random in [0.5, 1] of the capped exponential. */
export function backoffDelay(attempt: number, options: ReconnectOptions): number {
  const { initialDelay = 500, maxDelay = 10_000, factor = 2 } = options;
  const ceiling = Math.min(maxDelay, initialDelay * factor ** (attempt - 1));
  // Half fixed, half random: clients that lost the same server do not come back in step.
  return (ceiling * (1 + Math.random())) / 2;
}
