/**
 * A bound on a wait of the benchmarks that talk to other processes (PostgreSQL, a child on Node
 * 22): a wait that never ends fails the benchmark with its reason, well before the runner's
 * timeout kills the process and leaves its database server running.
 */

/** `promise`, or a rejection naming `what` once `ms` milliseconds passed first. */
export async function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
