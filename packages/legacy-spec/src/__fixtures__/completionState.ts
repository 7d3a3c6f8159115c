/**
 * What one served connection of the completion fixtures remembers: the elicitationIds that went
 * through `complete`, and how many calls `requires-url` got per list of ids. One per connection
 * (a stdio process, or an HTTP session), so parallel sessions never see each other's ids.
 */
export interface CompletionState {
  completed: Set<string>;
  requiresUrlCalls: Map<string, number>;
  /** The `link` calls waiting for their elicitation to go through `complete`, by elicitationId. */
  linking: Map<string, () => void>;
}

/** A fresh, empty state. */
export const createCompletionState = (): CompletionState => ({
  completed: new Set(),
  requiresUrlCalls: new Map(),
  linking: new Map(),
});

/** Record `elicitationId` as completed and release a `link` call waiting for it. */
export function markCompleted(state: CompletionState, elicitationId: string): void {
  state.completed.add(elicitationId);
  state.linking.get(elicitationId)?.();
}

/** Resolve once `elicitationId` went through `complete`; reject when `signal` aborts (the call was cancelled). */
export function linked(
  state: CompletionState,
  elicitationId: string,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (state.completed.has(elicitationId)) return resolve();
    state.linking.set(elicitationId, resolve);
    signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
  });
}

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
 * With `once`, only the first call lists them: the retry succeeds whether or not they completed.
 */
export function requiresUrl(
  state: CompletionState,
  elicitationIds: string[],
  url: string,
  once = false,
) {
  const key = elicitationIds.join(' ');
  const calls = (state.requiresUrlCalls.get(key) ?? 0) + 1;
  state.requiresUrlCalls.set(key, calls);
  // `once`: only the first call needs the elicitations; a retry succeeds without their completion.
  const required: RequiredUrlElicitation[] = elicitationIds
    .filter((id) => !state.completed.has(id) && !(once && calls > 1))
    .map((elicitationId) => ({
      mode: 'url',
      elicitationId,
      url: `${url}?id=${encodeURIComponent(elicitationId)}`,
      message: `Authorize ${elicitationId}`,
    }));
  return { required, answer: `done:${calls}` };
}
