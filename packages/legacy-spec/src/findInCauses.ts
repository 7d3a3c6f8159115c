import { isRecord } from '@waitfor/runtime';

// The one record check of every package (a cause chain holds Errors, which count).
export { isRecord } from '@waitfor/runtime';

/**
 * The first non-undefined `pick` of `error` or a link of its `cause` chain. The chain is followed
 * eight links at most, so a cyclic or absurdly deep chain cannot hang the caller.
 */
export function findInCauses<T>(
  error: unknown,
  pick: (link: Record<string, unknown>) => T | undefined,
): T | undefined {
  let link = error;
  for (let depth = 0; depth < 8 && isRecord(link); depth += 1) {
    const found = pick(link);
    if (found !== undefined) return found;
    link = link['cause'];
  }
  return undefined;
}
