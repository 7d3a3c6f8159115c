/**
 * One SDK-neutral view of an MCP client of either generation. The SDKs are peer dependencies: the
 * port never imports them at run time and reads clients structurally, so a host with only one SDK
 * installed (or a browser with only the v2 client) works. The generation is chosen once, when the
 * port is made; each generation lives in its own file with the same shape:
 *
 * - `clientPort/v2.ts` (`@modelcontextprotocol/client`): detected by `getProtocolEra`; handlers by
 *   method name; both eras.
 * - `clientPort/v1.ts` (`@modelcontextprotocol/sdk`): legacy era only; handlers need the SDK's zod
 *   request schemas, from `options.v1Schemas` or, lazily, `@modelcontextprotocol/sdk/types.js`.
 *
 * What the port does to an SDK beyond its public API lives in `clientPort/sdkWorkarounds.ts`.
 */
import { isRecord } from '@waitfor/runtime';
import { BridgeError } from './bridgeError';
import type { ClientPort } from './clientPort/port';
import { fn, type Loose } from './clientPort/shared';
import { createV1Port } from './clientPort/v1';
import { createV2Port } from './clientPort/v2';

export type {
  ClientPort,
  InboundContext,
  InboundHandler,
  InboundMethod,
  PortCallOptions,
  V1Schemas,
} from './clientPort/port';

/** A fresh SDK-neutral view of `client` (an object with the methods of an MCP client of either generation). */
export function createClientPort(client: object): ClientPort {
  const loose = client as Loose;
  if (
    !isRecord(client) ||
    !fn(loose, 'setRequestHandler') ||
    !fn(loose, 'request') ||
    !fn(loose, 'connect')
  )
    throw new BridgeError('invalid_options', 'Not an MCP Client (v1 or v2 SDK)');
  return fn(loose, 'getProtocolEra') ? createV2Port(loose) : createV1Port(loose);
}
