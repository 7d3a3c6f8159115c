/** A fresh unique id such as `req-0f4c…`; `prefix` names where it comes from (e.g. `elc`). */
export const createRequestId = (prefix = 'req'): string =>
  // randomUUID is missing outside secure contexts (a page on plain http): 52 random bits then.
  `${prefix}-${(globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.() ?? Math.random().toString(36).slice(2)}`;
