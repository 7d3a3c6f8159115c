import type { Clock } from '../holds';

/** Timers that fire only when the test advances them. */
export function manualClock(): Clock & { advance(ms: number): void } {
  let now = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  let ids = 0;
  return {
    setTimeout: (callback, ms) => {
      timers.set(++ids, { at: now + ms, callback });
      return ids;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, timer]) => timer.at <= until);
        if (due.length === 0) break;
        const [id, timer] = due.sort((a, b) => a[1].at - b[1].at)[0] as [
          number,
          { at: number; callback: () => void },
        ];
        timers.delete(id);
        now = timer.at;
        timer.callback();
      }
      now = until;
    },
  };
}
