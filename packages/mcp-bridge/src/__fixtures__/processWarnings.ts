/**
 * Process warnings (MaxListenersExceededWarning and the like) of each test of the calling file. The
 * returned function first lets one macrotask turn pass, because Node reports a warning on a later
 * tick, then gives the warnings the running test caused so far.
 */
import { afterEach, beforeEach } from 'vitest';

export function recordProcessWarnings(): () => Promise<Error[]> {
  let warnings: Error[] = [];
  const onWarning = (warning: Error) => {
    warnings.push(warning);
  };
  beforeEach(() => {
    warnings = [];
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });
  return async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return warnings;
  };
}
