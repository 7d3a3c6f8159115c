/**
 * The one table keyed by a client: the free functions (`callTool(client, …)` and friends) find the
 * bridge attached to a client here, and a client keeps one SDK port for its life (the port patches
 * the client once: notification routing, a v1 client's `connect`). Everything else a bridge holds
 * lives on its object.
 */
import { createClientPort, type ClientPort, type V1Schemas } from './clientPort';
import type { BridgeState } from './bridgeState';

/** What the bridge keeps per client. */
export interface ClientEntry {
  readonly port: ClientPort;
  /** The bridge attached now (unset before attach and after detach). */
  bridge: BridgeState | undefined;
}

const clients = new WeakMap<object, ClientEntry>();

/** The entry of `client`, made (with its port) on first use; `v1Schemas` are kept for registrations. */
export function entryOf(client: object, v1Schemas?: V1Schemas): ClientEntry {
  let entry = clients.get(client);
  if (!entry) clients.set(client, (entry = { port: createClientPort(client) } as ClientEntry));
  if (v1Schemas) entry.port.useSchemas?.(v1Schemas);
  return entry;
}
