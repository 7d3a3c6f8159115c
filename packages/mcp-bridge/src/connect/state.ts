/**
 * The connection's state as a snapshot a UI can subscribe to (`useSyncExternalStore` shape): the
 * same object until the state changes, so a render compares by identity.
 */
import type { ConnectionState } from '@waitfor/core';
import { createListeners } from '@waitfor/runtime';

/** One immutable view of the connection. */
export interface ConnectionSnapshot {
  /** Where the connection stands (core's ConnectionState). */
  readonly status: ConnectionState;
  /** While reconnecting: the attempt under way (1-based). */
  readonly attempt?: number;
  /** Why the connection was lost or closed, when it was not closed on purpose. */
  readonly error?: unknown;
}

/** The connection's snapshots, to subscribe to. */
export interface ConnectionStore {
  getSnapshot(): ConnectionSnapshot;
  /** Called after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** @internal A state and its setter, which reports whether it changed it (closed stays closed). */
export function createConnectionStore(): [
  ConnectionStore,
  (status: ConnectionState, details?: Omit<ConnectionSnapshot, 'status'>) => boolean,
] {
  let snapshot: ConnectionSnapshot = { status: 'connecting' };
  const listeners = createListeners();
  return [
    { getSnapshot: () => snapshot, subscribe: listeners.add },
    (status, details) => {
      if (snapshot.status === 'closed') return false;
      snapshot = Object.freeze({ status, ...details });
      listeners.emit();
      return true;
    },
  ];
}
