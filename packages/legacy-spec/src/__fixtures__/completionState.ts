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

/** What a -32042 lists for one elicitation the `requires-url` tool still needs. */
export interface RequiredUrlElicitation {
  mode: 'url';
  elicitationId: string;
  url: string;
  message: string;
}

/** The message of the URLElicitationRequiredError the `requires-url` tool throws. */
export const REQUIRES_URL_MESSAGE = 'This request requires browser-based authorization.';

/**
 * The `requires-url` tool, SDK-free: count the call for `elicitationIds`, then list the URL
 * elicitations still required (to throw as -32042) or, when none are, the answer `done:<n>`.
 */
export function requiresUrl(state: CompletionState, elicitationIds: string[], url: string) {
  const key = elicitationIds.join(' ');
  const calls = (state.requiresUrlCalls.get(key) ?? 0) + 1;
  state.requiresUrlCalls.set(key, calls);
  const required: RequiredUrlElicitation[] = elicitationIds
    .filter((id) => !state.completed.has(id))
    .map((elicitationId) => ({
      mode: 'url',
      elicitationId,
      url: `${url}?id=${encodeURIComponent(elicitationId)}`,
      message: `Authorize ${elicitationId}`,
    }));
  return { required, answer: `done:${calls}` };
}
