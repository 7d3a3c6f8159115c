/**
 * A gateway over Streamable HTTP in front of the bridge's hostile server (also over HTTP) pinned to
 * one era, for the gateway's hostile and scale suites: started before the enclosing suite, closed
 * after it. Read it inside tests only.
 */
import { afterAll, beforeAll } from 'vitest';
import {
  startHostileHttpServer,
  type HostileHttpServer,
} from '../../../mcp-bridge/src/__fixtures__/hostileHttp';
import {
  createGateway,
  serveHttp,
  type Gateway,
  type GatewayOptions,
  type HttpEndpoint,
} from '../index';

/** The running hostile upstream, the gateway in front of it and what the gateway logged. */
export interface HostileGatewaySetup {
  upstream: HostileHttpServer;
  gateway: Gateway;
  endpoint: HttpEndpoint;
  logs: string[];
}

/** A gateway in front of the hostile server for the enclosing suite. */
export function useHostileGateway(
  era: 'legacy' | 'modern',
  options: Omit<GatewayOptions, 'upstream' | 'era' | 'log'> = {},
): HostileGatewaySetup {
  let running: Omit<HostileGatewaySetup, 'logs'> | undefined;
  const logs: string[] = [];
  beforeAll(async () => {
    const upstream = await startHostileHttpServer();
    const gateway = await createGateway({
      ...options,
      upstream: { url: upstream.url },
      era,
      log: (line) => logs.push(line),
    });
    running = { upstream, gateway, endpoint: await serveHttp(gateway) };
  });
  afterAll(async () => {
    await running?.endpoint.close();
    await running?.gateway.close();
    await running?.upstream.close();
  });
  const get = () => {
    if (running === undefined) throw new Error('the gateway is not running: read it inside a test');
    return running;
  };
  return {
    get upstream() {
      return get().upstream;
    },
    get gateway() {
      return get().gateway;
    },
    get endpoint() {
      return get().endpoint;
    },
    logs,
  };
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
