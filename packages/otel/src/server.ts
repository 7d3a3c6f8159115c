/**
 * What the MCP conventions record of the server a call goes to — address, port, transport and the
 * negotiated protocol revision — from what the host tells the telemetry: bridge extensions do not
 * see the transport (the revision the bridge's client negotiated is `ExtensionHost.protocolVersion`).
 *
 * Invariants: the target is the host's own (parsed once); the client is read structurally on each
 * call (v1 or v2, never imported), and what it returns is bounded.
 */
import type { Attributes } from '@opentelemetry/api';
import {
  bounded,
  isRecord,
  NETWORK_PROTOCOL,
  SERVER_ADDRESS,
  SERVER_PORT,
  TRANSPORT,
} from './attributes';

/** The one server a telemetry's calls go to. */
export interface TelemetryServer {
  /** As `connect` takes it: `{ url }` (Streamable HTTP) or `{ command }` (stdio). */
  target?: { url: string | { href: string } } | { command: string };
  /**
   * The MCP client (v1 or v2), or a function returning it (a `Connection`'s exists once it is
   * connected): read on each call for the protocol revision it negotiated.
   */
  client?: object | (() => object | undefined);
}

// The main entry compiles without DOM and Node types: the part of the global URL used here.
declare const URL: new (value: string) => { protocol: string; hostname: string; port: string };

/** `server.address`, `server.port` and `network.*` of a target; none when it names neither. */
export function targetAttributes(target: TelemetryServer['target']): Attributes {
  if (target === undefined) return {};
  if ('command' in target) return { [TRANSPORT]: 'pipe' };
  try {
    const url = new URL(typeof target.url === 'string' ? target.url : target.url.href);
    return {
      // An IPv6 host is recorded without its brackets.
      [SERVER_ADDRESS]: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      [SERVER_PORT]: url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
      [TRANSPORT]: 'tcp',
      [NETWORK_PROTOCOL]: 'http',
    };
  } catch {
    return {};
  }
}

/**
 * The revision the client negotiated: a v2 client's `getNegotiatedProtocolVersion()`, a v1
 * client's HTTP transport's `protocolVersion` (v1 keeps none over stdio).
 */
export function negotiatedVersion(client: TelemetryServer['client']): string | undefined {
  const resolved: unknown = typeof client === 'function' ? client() : client;
  if (!isRecord(resolved)) return undefined;
  const read = resolved['getNegotiatedProtocolVersion'];
  if (typeof read === 'function') return bounded(read.call(resolved));
  const transport = resolved['transport'];
  return isRecord(transport) ? bounded(transport['protocolVersion']) : undefined;
}
