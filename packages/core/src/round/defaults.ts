/** The round engine's defaults: every driver (core's tool runner, the bridge's modern era) uses these. */

/** Submissions of an invalid form a person gets before the question ends cancelled. */
export const DEFAULT_MAX_ATTEMPTS = 3;

/** Most rounds a tool run or a modern-era call may need before `rounds_exceeded`. */
export const DEFAULT_MAX_ROUNDS = 10;

/** Most Requests one round of a host's own tool may hold. */
export const DEFAULT_MAX_REQUESTS = 32;
