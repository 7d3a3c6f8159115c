/**
 * The connection's state as a snapshot a UI can subscribe to (`useSyncExternalStore` shape): the
 * same object until the state changes, so a render compares by identity.
 */
import { createListeners } from '@waitfor/runtime';

/** Where a connection stands. */
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'closed';

/** One immutable view of the connection. */
export interface ConnectionSnapshot {
  readonly status: ConnectionStatus;
  /** While reconnecting: the attempt under way (1-based). */
  readonly attempt?: number;
  /** Why the connection was lost or closed, when it was not closed on purpose. */
  readonly error?: unknown;
}

/** A subscribable connection state. */
export interface ConnectionState {
  getSnapshot(): ConnectionSnapshot;
  /** Called after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** @internal A state and its setter, which reports whether it changed it (closed stays closed). */
export function createConnectionState(): [
  ConnectionState,
  (status: ConnectionStatus, details?: Omit<ConnectionSnapshot, 'status'>) => boolean,
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
