/**
 * A gateway over Streamable HTTP in front of the dual-era fixture (also over HTTP) pinned to one
 * era, started before the enclosing suite and closed after it. Read it inside tests only.
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

export interface GatewaySetup {
  upstream: DualEraHttpServer;
  gateway: Gateway;
  endpoint: HttpEndpoint;
  /** What the gateway logged. */
  logs: string[];
}

export function useGatewayOverHttp(
  era: 'legacy' | 'modern',
  options: Omit<GatewayOptions, 'upstream' | 'era' | 'log'> = {},
): GatewaySetup {
  let running: Omit<GatewaySetup, 'logs'> | undefined;
  const logs: string[] = [];
  beforeAll(async () => {
    const upstream = await startDualEraHttpServer();
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
