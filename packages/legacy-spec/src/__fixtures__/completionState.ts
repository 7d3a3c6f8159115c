/**
 * What one served connection of the completion fixtures remembers: the elicitationIds that went
 * through `complete`, and how many calls `requires-url` got per list of ids. One per connection
 * (a stdio process, or an HTTP session), so parallel sessions never see each other's ids.
 */
export interface CompletionState {
  completed: Set<string>;
  requiresUrlCalls: Map<string, number>;
}

/** A fresh, empty state. */
export const createCompletionState = (): CompletionState => ({
  completed: new Set(),
  requiresUrlCalls: new Map(),
});

/** Count one `requires-url` call for `elicitationIds`; returns the count and the ids not yet completed. */
export function countRequiresUrl(state: CompletionState, elicitationIds: string[]) {
  const key = elicitationIds.join(' ');
  const calls = (state.requiresUrlCalls.get(key) ?? 0) + 1;
  state.requiresUrlCalls.set(key, calls);
  return { calls, missing: elicitationIds.filter((id) => !state.completed.has(id)) };
}
