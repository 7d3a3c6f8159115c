/** The longest delay one JavaScript timer holds (2^31 - 1 ms, about 24.8 days): longer ones fire at once. */
const maxDelay = 2_147_483_647;

/**
 * Runs `run` once `now()` reaches `when` (epoch ms), however far away: a delay longer than one
 * timer holds is covered by several, each checking the clock again. `keepAlive: false` lets Node
 * exit while it waits. Returns the function that cancels it.
 */
export function runAt(
  when: number,
  now: () => number,
  run: () => void,
  keepAlive = true,
): () => void {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    const remaining = when - now();
    handle = setTimeout(
      () => (when - now() > 0 ? arm() : run()),
      Math.min(Math.max(remaining, 0), maxDelay),
    );
    if (!keepAlive) handle.unref?.();
  };
  if (when !== Infinity) arm();
  return () => clearTimeout(handle);
}
