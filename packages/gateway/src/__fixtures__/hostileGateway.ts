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
