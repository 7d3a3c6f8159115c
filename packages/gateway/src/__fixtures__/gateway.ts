/**
 * A gateway over Streamable HTTP in front of an upstream served over HTTP (the dual-era fixture by
 * default) pinned to one era, started before the enclosing suite and closed after it. Read it
 * inside tests only.
 */
import { afterAll, beforeAll } from 'vitest';
import {
  startDualEraHttpServer,
  type DualEraHttpServer,
} from '../../../mcp-bridge/src/__fixtures__/dualEraServer';
import {
  createGateway,
  serveHttp,
  type Gateway,
  type GatewayOptions,
  type HttpEndpoint,
} from '../index';

/** An upstream the gateway reaches over HTTP. */
export interface HttpUpstream {
  readonly url: string;
  close(): Promise<void>;
}

/** The running upstream, the gateway in front of it and what the gateway logged. */
export interface GatewaySetup<U extends HttpUpstream = DualEraHttpServer> {
  upstream: U;
  gateway: Gateway;
  endpoint: HttpEndpoint;
  /** What the gateway logged. */
  logs: string[];
}

/** A gateway in front of the upstream `start` opens, for the enclosing suite (era undefined: found out). */
export function useGatewayInFront<U extends HttpUpstream>(
  start: () => Promise<U>,
  era: 'legacy' | 'modern' | undefined,
  options: Omit<GatewayOptions, 'upstream' | 'era' | 'log'> = {},
): GatewaySetup<U> {
  let running: Omit<GatewaySetup<U>, 'logs'> | undefined;
  const logs: string[] = [];
  beforeAll(async () => {
    const upstream = await start();
    const gateway = await createGateway({
      ...options,
      upstream: { url: upstream.url },
      ...(era === undefined ? {} : { era }),
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

/** A gateway in front of the dual-era fixture for the enclosing suite. */
export function useGatewayOverHttp(
  era: 'legacy' | 'modern',
  options: Omit<GatewayOptions, 'upstream' | 'era' | 'log'> = {},
): GatewaySetup {
  return useGatewayInFront(startDualEraHttpServer, era, options);
}
