// The store's clock can be injected (`now`) and a question may expire weeks ahead: a timer alone
// cannot say when that moment has come, so every wait on the clock goes through here.
import { schedule, scheduleUnref } from '@waitfor/runtime';

/**
 * Runs `run` once the store's clock reaches `when` (epoch ms), however far away: each timer that
 * fires checks the clock again, so an injected `now` (or a long, chained delay) never ends a wait
 * early. `keepAlive: false` lets Node exit while it waits. Returns the function that cancels it.
 */
export const runAt = (when: number, now: () => number, run: () => void, keepAlive = true) => {
  const start = keepAlive ? schedule : scheduleUnref;
  let stop = (): void => {};
  const arm = (): void => {
    stop = start(when - now(), () => (when - now() > 0 ? arm() : run()));
  };
  arm();
  return () => stop();
};
