/**
 * A gateway over Streamable HTTP in front of the bridge's hostile server (also over HTTP) pinned to
 * one era, for the gateway's hostile and scale suites: started before the enclosing suite, closed
 * after it. Read it inside tests only.
 */
import {
  startHostileHttpServer,
  type HostileHttpServer,
} from '../../../mcp-bridge/src/__fixtures__/hostileHttp';
import type { GatewayOptions } from '../index';
import { useGatewayInFront, type GatewaySetup } from './gateway';

/** The running hostile upstream, the gateway in front of it and what the gateway logged. */
export type HostileGatewaySetup = GatewaySetup<HostileHttpServer>;

/** A gateway in front of the hostile server for the enclosing suite. */
export function useHostileGateway(
  era: 'legacy' | 'modern',
  options: Omit<GatewayOptions, 'upstream' | 'era' | 'log'> = {},
): HostileGatewaySetup {
  return useGatewayInFront(startHostileHttpServer, era, options);
}

/** A gateway clock whose timers run only when the test fires them (by their delay). */
export function manualClock() {
  const timers = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  return {
    setTimeout(callback: () => void, ms: number): unknown {
      timers.set(++next, { callback, ms });
      return next;
    },
    clearTimeout(handle: unknown): void {
      timers.delete(handle as number);
    },
    /** Runs (once) every pending timer set for `ms`. */
    fire(ms: number): void {
      for (const [handle, timer] of [...timers])
        if (timer.ms === ms) {
          timers.delete(handle);
          timer.callback();
        }
    },
  };
}
